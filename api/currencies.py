"""Currencies: GET /api/v1/currencies[?testnet=false|true] (the workspace's own network type only;
left out, the workspace's own)."""

from __future__ import annotations

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.currencies import CurrencyList, CurrencyListQuery
from domain import currencies
from domain.permissions import Permission

bp = Blueprint("currencies", url_prefix="/api/v1")


@bp.get("/currencies")
@endpoint(summary="Currencies of the workspace's network type (testnet left out: the workspace's own)",
          tag="currencies", query=CurrencyListQuery, responses={200: CurrencyList}, workspace=True,
          errors={400: ["CURRENCY_NETWORK_MISMATCH"]})
async def list_currencies(request: Request, query: CurrencyListQuery) -> CurrencyList:
    caller, ws = await workspace(request)
    caller.require(ws.id, Permission.VIEW_WORKSPACE)
    return CurrencyList.of(currencies.list_currencies(network_type=ws.network_type, testnet=query.testnet))
