"""Currencies: GET /api/v1/currencies?testnet=false|true (the workspace's own network type only)."""

from __future__ import annotations

from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import workspace
from domain import currencies
from domain.currencies import Currency
from domain.errors import field_error
from domain.permissions import Permission

bp = Blueprint("currencies", url_prefix="/api/v1")


def serialize(currency: Currency) -> dict[str, Any]:
    """CurrencyView, plus the network it lives on and its token contract."""
    return {
        "id": currency.id,
        "symbol": currency.symbol,
        "descriptor": currency.descriptor,
        "decimals": currency.decimals,
        "blockchain_name": currency.network.blockchain_name,
        "blockchain_icon_url": currency.network.blockchain_icon_url,
        "icon_url": currency.icon_url,
        "network_id": currency.network.id,
        "network_type": currency.network_type,
        "contract": currency.contract,
    }


def boolean(raw: str | None, name: str, *, default: bool) -> bool:
    if raw is None or raw == "":
        return default
    lowered = raw.strip().lower()
    if lowered in {"true", "1"}:
        return True
    if lowered in {"false", "0"}:
        return False
    raise field_error(name, "must be true or false")


@bp.get("/currencies")
@openapi.summary("Currencies of the workspace's network type (testnet=true for a testnet workspace)")
@openapi.secured("BearerAuth")
@openapi.parameter("testnet", bool, "query")
async def list_currencies(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    caller.require(ws.id, Permission.VIEW_WORKSPACE)
    testnet = boolean(request.args.get("testnet"), "testnet", default=False)
    items = currencies.list_currencies(network_type=ws.network_type, testnet=testnet)
    return json([serialize(c) for c in items])
