"""Balances: GET /api/v1/asset/balances, /asset/totals and /asset/balances/currencies (the snapshot).

The snapshot's ``cursor`` is a position of the workspace's change log (GET
/transactions/changes): the balances include exactly the changes up to it. ``wallets=true``
adds ``wallet_balances`` (per wallet, with its address and balance_version) read in the same
state, which lets a client seed per-address balances (client/balance_sync.py).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api import currencies as currency_api
from api.context import iso, workspace
from core import clock
from domain import balances, prices
from domain.balances import CurrencyTotal

bp = Blueprint("balances", url_prefix="/api/v1/asset")


def symbol_balance(item: CurrencyTotal) -> dict[str, Any]:
    return {"symbol": item.currency.symbol, "icon_url": item.currency.icon_url, "decimals": item.currency.decimals,
            **balances.amounts(item.parts, item.currency.decimals)}


def converted_or_zero(totals: list[CurrencyTotal]) -> dict[str, str]:
    converted = balances.converted_total(totals)
    if converted is not None:
        return converted.to_dict()
    zero = prices.format_fiat(Decimal(0))
    return {"available": zero, "frozen": zero, "held": zero, "total": zero,
            "relevant_on": iso(clock.now()), "symbol": prices.price_source().fiat_symbol}  # type: ignore[dict-item]


@bp.get("/balances")
@openapi.summary("Workspace balances per symbol and their total fiat value")
@openapi.secured("BearerAuth")
async def workspace_balances(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    totals = await balances.workspace_totals(principal=caller, workspace_id=ws.id)
    return json({"converted_balances": converted_or_zero(totals),
                 "symbol_balances": [symbol_balance(t) for t in totals]})


@bp.get("/totals")
@openapi.summary("Workspace balance per symbol, earlier form (balance = total)")
@openapi.secured("BearerAuth")
async def workspace_totals(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    totals = await balances.workspace_totals(principal=caller, workspace_id=ws.id)
    return json([{"symbol": t.currency.symbol, "icon_url": t.currency.icon_url, "decimals": t.currency.decimals,
                  "balance": balances.amounts(t.parts, t.currency.decimals)["total"],
                  "balance_atomic": str(t.parts.total)} for t in totals])


@bp.get("/balances/currencies")
@openapi.summary("Balance snapshot per currency with the change-log cursor (wallets=true adds per-wallet rows)")
@openapi.secured("BearerAuth")
@openapi.parameter("wallets", bool, "query")
async def balance_snapshot(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    include_wallets = currency_api.boolean(request.args.get("wallets"), "wallets", default=False)
    snap = await balances.snapshot(principal=caller, workspace_id=ws.id, include_wallets=include_wallets)
    body: dict[str, Any] = {
        "currency_balances": [
            {"currency": currency_api.serialize(t.currency), **balances.amounts(t.parts, t.currency.decimals)}
            for t in snap.currency_balances
        ],
        "cursor": snap.cursor,
        "min_cursor": snap.min_cursor,
        "snapshot_at": iso(snap.snapshot_at),
    }
    if snap.wallets is not None:
        decimals = {t.currency.id: t.currency.decimals for t in snap.currency_balances}
        body["wallet_balances"] = [
            {"wallet_id": str(w.wallet_id), "vault_id": str(w.vault_id), "currency_id": w.currency_id,
             "network_id": w.network, "address": w.address, "balance_version": w.balance_version,
             "balance": balances.amounts(w.parts, decimals.get(w.currency_id, 0)),
             "block_height": w.parts.block_height}
            for w in snap.wallets if w.currency_id in decimals
        ]
    return json(body)
