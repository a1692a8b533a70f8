"""Wallets: POST /api/v1/wallet (open a wallet) and GET /api/v1/asset (wallet assets).

An asset carries its balance in both forms: the current one (``balances``,
``converted_balances``) and the earlier one (``balance``/``balance_atomic`` = the total,
``converted_balance`` = its fiat value).
"""

from __future__ import annotations

import uuid
from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api import currencies as currency_api
from api.context import iso, json_body, workspace
from core.unit_of_work import unit_of_work
from domain import balances, wallets
from domain import validation as v
from domain.currencies import format_amount
from domain.errors import field_error
from domain.prices import format_fiat
from domain.wallets import WalletView

bp = Blueprint("wallets", url_prefix="/api/v1")


def serialize(view: WalletView) -> dict[str, Any]:
    """AssetView (current and earlier balance forms)."""
    wallet, currency, address = view.wallet, view.currency, view.address
    parts = balances.parts_of(wallet)
    converted = balances.convert(parts, currency)
    return {
        "id": str(wallet.id),
        "vault_id": str(wallet.vault_id),  # type: ignore[attr-defined]
        "workspace_id": str(wallet.workspace_id),  # type: ignore[attr-defined]
        "currency": currency_api.serialize(currency),
        "decimals": currency.decimals,
        "status": wallet.status,
        "primary_address": {
            "address": address.address,
            "network_id": address.network,
            "blockchain_name": currency.network.blockchain_name,
            "type": "receive",
            "created_at": iso(address.created_at),
        },
        "created_at": iso(wallet.created_at),
        "updated_at": iso(wallet.updated_at),
        "balances": balances.balances_object(parts, currency.decimals),
        "converted_balances": converted.to_dict() if converted else None,
        # Earlier form of the same record: one balance (the total) and its fiat value.
        "balance": format_amount(parts.total, currency.decimals),
        "balance_atomic": str(parts.total),
        "converted_balance": None if converted is None else {
            "formatted_value": format_fiat(converted.total),
            "relevant_on": converted.to_dict()["relevant_on"],
            "symbol": converted.symbol,
        },
    }


@bp.post("/wallet")
@openapi.summary("Open the wallet of a currency in a vault, with its receiving address (EDIT_WORKSPACE)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"currency_id": str, "vault_id": str}})
async def create_wallet(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    currency_id = v.string(body, "currency_id", max_len=40)
    if body.get("vault_id") is None:
        raise field_error("vault_id", "is required")
    vault_id = v.uuid_value(body.get("vault_id"), "vault_id")
    async with unit_of_work():
        created = await wallets.create_wallet(principal=caller, workspace=ws, vault_id=vault_id,
                                              currency_id=currency_id)  # type: ignore[arg-type]
    return json({"assets": [serialize(c) for c in created]}, status=201)


@bp.get("/asset")
@openapi.summary("Wallet assets of the workspace (limit default 100, max 1000; offset; vaultID filter)")
@openapi.secured("BearerAuth")
@openapi.parameter("vaultID", str, "query")
async def list_assets(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    limit, offset = v.page(request.args, default_limit=100, max_limit=1000)
    raw_vault = request.args.get("vaultID")
    vault_id = v.uuid_value(raw_vault, "vaultID") if raw_vault else None
    items, total = await wallets.list_wallets(principal=caller, workspace_id=ws.id, limit=limit, offset=offset,
                                              vault_id=vault_id)
    return json({"assets": [serialize(i) for i in items], "offset": offset, "total": total})


@bp.get("/asset/<wallet_id:uuid>")
@openapi.summary("One wallet asset")
@openapi.secured("BearerAuth")
async def get_asset(request: Request, wallet_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    return json(serialize(await wallets.get_wallet(principal=caller, workspace_id=ws.id, wallet_id=wallet_id)))
