"""Whitelisted external wallets (/api/v1/whitelist/wallets) and the one-time address setting
(/api/v1/whitelist/settings). Changes need EDIT_WORKSPACE; reads VIEW_WORKSPACE."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint, gated
from api.schemas.whitelist import (
    WhitelistedWallet,
    WhitelistedWalletCreate,
    WhitelistedWalletPage,
    WhitelistedWalletQuery,
    WhitelistSettings,
    WhitelistSettingsUpdate,
)
from core.unit_of_work import unit_of_work
from domain import whitelist

bp = Blueprint("whitelist", url_prefix="/api/v1/whitelist")

_NOT_FOUND = {404: ["WHITELISTED_WALLET_NOT_FOUND"]}


@bp.post("/wallets")
@endpoint(summary="Whitelist an external address for a currency (EDIT_WORKSPACE)", tag="whitelist",
          description="The address is validated and normalized for the currency's network. An address of one of "
                      "the workspace's vaults is refused (send to it with target_wallet_id).",
          body=WhitelistedWalletCreate, responses={201: WhitelistedWallet}, workspace=True,
          errors=gated({400: ["INVALID_ADDRESS", "CURRENCY_NETWORK_MISMATCH", "INTERNAL_ADDRESS"],
                        404: ["CURRENCY_NOT_FOUND"], 409: ["WHITELISTED_WALLET_EXISTS"]}))
async def add_whitelisted_wallet(request: Request, body: WhitelistedWalletCreate) -> WhitelistedWallet:
    caller, ws = await workspace(request)
    async with unit_of_work():
        entry = await whitelist.add_wallet(principal=caller, workspace=ws, name=body.name,
                                           currency_id=body.currency_id, address=body.address)
    return WhitelistedWallet.of(entry)


@bp.get("/wallets")
@endpoint(summary="Whitelisted wallets of the workspace, newest first", tag="whitelist",
          query=WhitelistedWalletQuery, responses={200: WhitelistedWalletPage}, workspace=True)
async def list_whitelisted_wallets(request: Request, query: WhitelistedWalletQuery) -> WhitelistedWalletPage:
    caller, ws = await workspace(request)
    items, total = await whitelist.list_wallets(principal=caller, workspace_id=ws.id, limit=query.limit,
                                                offset=query.offset, currency_id=query.currency_id)
    return WhitelistedWalletPage(items=[WhitelistedWallet.of(i) for i in items], total=total, limit=query.limit,
                                 offset=query.offset)


@bp.get("/wallets/<wallet_id:uuid>")
@endpoint(summary="One whitelisted wallet", tag="whitelist", responses={200: WhitelistedWallet}, workspace=True,
          errors=_NOT_FOUND)
async def get_whitelisted_wallet(request: Request, wallet_id: uuid.UUID) -> WhitelistedWallet:
    caller, ws = await workspace(request)
    return WhitelistedWallet.of(await whitelist.get_wallet(principal=caller, workspace_id=ws.id, wallet_id=wallet_id))


@bp.delete("/wallets/<wallet_id:uuid>")
@endpoint(summary="Remove a whitelisted wallet (EDIT_WORKSPACE); withdrawals already made to it go on",
          tag="whitelist", responses={204: None}, workspace=True, errors=_NOT_FOUND)
async def delete_whitelisted_wallet(request: Request, wallet_id: uuid.UUID) -> None:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await whitelist.remove_wallet(principal=caller, workspace_id=ws.id, wallet_id=wallet_id)


@bp.get("/settings")
@endpoint(summary="Whether withdrawals may go to one-time addresses", tag="whitelist",
          responses={200: WhitelistSettings}, workspace=True)
async def get_whitelist_settings(request: Request) -> WhitelistSettings:
    caller, ws = await workspace(request)
    return WhitelistSettings.of(await whitelist.get_settings(principal=caller, workspace_id=ws.id))


@bp.put("/settings")
@endpoint(summary="Allow or forbid one-time addresses (EDIT_WORKSPACE)", tag="whitelist",
          body=WhitelistSettingsUpdate, responses={200: WhitelistSettings}, workspace=True, errors=gated())
async def put_whitelist_settings(request: Request, body: WhitelistSettingsUpdate) -> WhitelistSettings:
    caller, ws = await workspace(request)
    async with unit_of_work():
        current = await whitelist.set_settings(principal=caller, workspace_id=ws.id,
                                               one_time_addresses_allowed=body.one_time_addresses_allowed)
    return WhitelistSettings.of(current)
