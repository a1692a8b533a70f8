"""Wallets: POST /api/v1/wallet (open a wallet) and GET /api/v1/asset (wallet assets).

An asset carries its balance in both forms: the current one (``balances``,
``converted_balances``) and the earlier one (``balance``/``balance_atomic`` = the total,
``converted_balance`` = its fiat value).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.wallets import Asset, AssetList, AssetListQuery, WalletCreate, WalletCreated
from core.unit_of_work import unit_of_work
from domain import wallets

bp = Blueprint("wallets", url_prefix="/api/v1")


@bp.post("/wallet")
@endpoint(summary="Open the wallet of a currency in a vault, with its receiving address (EDIT_WORKSPACE)",
          description="A token wallet also opens the native coin's wallet of the vault when it has none: the "
                      "token and its gas share one address. The answer lists every wallet the request opened.",
          tag="wallets", body=WalletCreate, responses={201: WalletCreated}, workspace=True,
          errors={400: ["CURRENCY_NETWORK_MISMATCH"], 404: ["CURRENCY_NOT_FOUND", "VAULT_NOT_FOUND"],
                  409: ["VAULT_FROZEN", "WALLET_ALREADY_EXISTS", "KEY_SET_NOT_READY"]})
async def create_wallet(request: Request, body: WalletCreate) -> WalletCreated:
    caller, ws = await workspace(request)
    async with unit_of_work():
        created = await wallets.create_wallet(principal=caller, workspace=ws, vault_id=body.vault_id,
                                              currency_id=body.currency_id)
    return WalletCreated(assets=[Asset.of(view) for view in created])


@bp.get("/asset")
@endpoint(summary="Wallet assets of the workspace", tag="wallets", query=AssetListQuery,
          responses={200: AssetList}, workspace=True, errors={404: ["VAULT_NOT_FOUND"]})
async def list_assets(request: Request, query: AssetListQuery) -> AssetList:
    caller, ws = await workspace(request)
    items, total = await wallets.list_wallets(principal=caller, workspace_id=ws.id, limit=query.limit,
                                              offset=query.offset, vault_id=query.vaultID)
    return AssetList(assets=[Asset.of(i) for i in items], offset=query.offset, total=total)


@bp.get("/asset/<wallet_id:uuid>")
@endpoint(summary="One wallet asset", tag="wallets", responses={200: Asset}, workspace=True,
          errors={404: ["WALLET_NOT_FOUND"]})
async def get_asset(request: Request, wallet_id: uuid.UUID) -> Asset:
    caller, ws = await workspace(request)
    return Asset.of(await wallets.get_wallet(principal=caller, workspace_id=ws.id, wallet_id=wallet_id))
