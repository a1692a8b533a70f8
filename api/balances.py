"""Balances: GET /api/v1/asset/balances, /asset/totals and /asset/balances/currencies (the snapshot).

The snapshot's ``cursor`` is a position of the workspace's change log (GET
/transactions/changes): the balances include exactly the changes up to it. ``wallets=true``
adds ``wallet_balances`` (per wallet, with its address and balance_version) read in the same
state, which lets a client seed per-address balances (the SDK's custody_sdk.balance_sync).
"""

from __future__ import annotations

from decimal import Decimal

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.balances import (
    BalanceAmounts,
    BalanceSnapshot,
    BalanceSnapshotQuery,
    ConvertedBalances,
    CurrencyBalance,
    SymbolBalance,
    SymbolTotal,
    SymbolTotals,
    WalletBalance,
    WorkspaceBalances,
)
from api.schemas.currencies import Currency
from core import clock
from core.clock import rfc3339
from domain import balances, prices
from domain.balances import CurrencyTotal

bp = Blueprint("balances", url_prefix="/api/v1/asset")


def _converted_or_zero(totals: list[CurrencyTotal]) -> ConvertedBalances:
    converted = balances.converted_total(totals)
    if converted is not None:
        return ConvertedBalances.of(converted)
    zero = prices.format_fiat(Decimal(0))
    return ConvertedBalances(available=zero, frozen=zero, held=zero, total=zero,
                             relevant_on=rfc3339(clock.now()),
                             symbol=prices.price_source().fiat_symbol)


@bp.get("/balances")
@endpoint(summary="Workspace balances per symbol and their total fiat value", tag="balances",
          responses={200: WorkspaceBalances}, workspace=True)
async def workspace_balances(request: Request) -> WorkspaceBalances:
    caller, ws = await workspace(request)
    totals = await balances.workspace_totals(principal=caller, workspace_id=ws.id)
    return WorkspaceBalances(
        converted_balances=_converted_or_zero(totals),
        symbol_balances=[SymbolBalance(symbol=t.currency.symbol, icon_url=t.currency.icon_url,
                                       decimals=t.currency.decimals, **balances.amounts(t.parts, t.currency.decimals))
                         for t in totals])


@bp.get("/totals")
@endpoint(summary="Workspace balance per symbol, earlier form (balance = total)", tag="balances",
          responses={200: SymbolTotals}, workspace=True)
async def workspace_totals(request: Request) -> SymbolTotals:
    caller, ws = await workspace(request)
    totals = await balances.workspace_totals(principal=caller, workspace_id=ws.id)
    return SymbolTotals([SymbolTotal(symbol=t.currency.symbol, icon_url=t.currency.icon_url,
                                     decimals=t.currency.decimals,
                                     balance=balances.amounts(t.parts, t.currency.decimals)["total"],
                                     balance_atomic=str(t.parts.total)) for t in totals])


@bp.get("/balances/currencies")
@endpoint(summary="Balance snapshot per currency with the change-log cursor (wallets=true adds per-wallet rows)",
          tag="balances", query=BalanceSnapshotQuery, responses={200: BalanceSnapshot}, workspace=True)
async def balance_snapshot(request: Request, query: BalanceSnapshotQuery) -> BalanceSnapshot:
    caller, ws = await workspace(request)
    snap = await balances.snapshot(principal=caller, workspace_id=ws.id, include_wallets=query.wallets,
                                   wallets_limit=query.wallets_limit, wallets_after=query.wallets_after)
    wallet_balances = None
    if snap.wallets is not None:
        decimals = {t.currency.id: t.currency.decimals for t in snap.currency_balances}
        wallet_balances = [
            WalletBalance(wallet_id=w.wallet_id, vault_id=w.vault_id, currency_id=w.currency_id, network_id=w.network,
                          address=w.address, balance_version=w.balance_version,
                          balance=BalanceAmounts.of(w.parts, decimals[w.currency_id]),
                          block_height=w.parts.block_height)
            for w in snap.wallets if w.currency_id in decimals
        ]
    return BalanceSnapshot(
        currency_balances=[CurrencyBalance(currency=Currency.of(t.currency),
                                           **balances.amounts(t.parts, t.currency.decimals))
                           for t in snap.currency_balances],
        cursor=snap.cursor, min_cursor=snap.min_cursor, snapshot_at=snap.snapshot_at, wallet_balances=wallet_balances,
        next_wallets_after=snap.next_wallets_after)
