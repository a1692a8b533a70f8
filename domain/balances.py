"""Wallet balances: the parts, how they change, and the workspace-wide aggregates and snapshot.

A wallet holds ``total`` atomic units, of which ``frozen`` are held back by a compliance hold
and ``held`` are promised to outgoing transfers in flight; ``available = total - frozen - held``
is what can still be spent. Every change goes through :func:`apply_change`, which also raises
the address's ``balance_version`` by one (the per-address order of absolute balances, sync
rule 2) and is made under row locks taken by :func:`lock_wallets` in a fixed order (addresses
then wallets, each sorted by id) so concurrent writers never deadlock.

The snapshot (:func:`snapshot`) reads the balances and the change log's cursor in one SQL
statement: ``cursor`` is one below the horizon of that statement's snapshot (core/commit_order.py),
so the balances include every change at or below ``cursor`` (and perhaps some after it, which a
client re-applies idempotently: sync rule 3).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Iterable

from tortoise import connections

from core import clock
from core.clock import rfc3339
from core.commit_order import HORIZON_SQL, NEXT_POSITION_SQL
from domain import prices
from domain.auth import Principal
from domain.currencies import Currency, format_amount, registry
from domain.errors import Conflict
from domain.permissions import Permission
from models.wallets import Wallet


@dataclass(frozen=True)
class BalanceParts:
    total: int = 0
    frozen: int = 0
    held: int = 0
    block_height: int = 0

    @property
    def available(self) -> int:
        return self.total - self.frozen - self.held

    def __add__(self, other: "BalanceParts") -> "BalanceParts":
        return BalanceParts(self.total + other.total, self.frozen + other.frozen, self.held + other.held,
                            max(self.block_height, other.block_height))


def parts_of(wallet: Wallet) -> BalanceParts:
    return BalanceParts(int(wallet.total), int(wallet.frozen), int(wallet.held), int(wallet.block_height))


def amounts(parts: BalanceParts, decimals: int) -> dict[str, str]:
    """The available/frozen/held/total set in whole units and ``_atomic`` units (strings)."""
    out: dict[str, str] = {}
    for name in ("available", "frozen", "held", "total"):
        atomic = getattr(parts, name)
        out[name] = format_amount(atomic, decimals)
        out[f"{name}_atomic"] = str(atomic)
    return out


def balances_object(parts: BalanceParts, decimals: int) -> dict[str, Any]:
    """The AssetView ``balances`` object: the four parts (+ ``_atomic``) and ``block_height``."""
    return {**amounts(parts, decimals), "block_height": parts.block_height}


@dataclass(frozen=True)
class Converted:
    available: Decimal
    frozen: Decimal
    held: Decimal
    total: Decimal
    symbol: str
    relevant_on: datetime

    def __add__(self, other: "Converted") -> "Converted":
        return Converted(self.available + other.available, self.frozen + other.frozen, self.held + other.held,
                         self.total + other.total, self.symbol, min(self.relevant_on, other.relevant_on))

    def to_dict(self) -> dict[str, str]:
        return {
            "available": prices.format_fiat(self.available), "frozen": prices.format_fiat(self.frozen),
            "held": prices.format_fiat(self.held), "total": prices.format_fiat(self.total),
            "relevant_on": rfc3339(self.relevant_on), "symbol": self.symbol,
        }


def convert(parts: BalanceParts, currency: Currency) -> Converted | None:
    """Fiat value of the parts from the price source; None when the currency has no price."""
    price = prices.price_source().price(currency.id)
    if price is None:
        return None

    def value(atomic: int) -> Decimal:
        return prices.convert(atomic, decimals=currency.decimals, price=price)

    return Converted(value(parts.available), value(parts.frozen), value(parts.held), value(parts.total),
                     price.symbol, price.relevant_on)


# --------------------------------------------------------------------------------------------
# Changing balances
# --------------------------------------------------------------------------------------------


class InsufficientBalance(Conflict):
    code = "INSUFFICIENT_BALANCE"


def _not_covered(wallet_id: uuid.UUID, parts: BalanceParts) -> InsufficientBalance:
    """409 INSUFFICIENT_BALANCE for a change ``parts`` (the wallet's parts before it) cannot cover."""
    return InsufficientBalance("the wallet's available balance does not cover this",
                               details={"wallet_id": str(wallet_id), "available_atomic": str(parts.available)})


#: One round trip, the order of two: the addresses' locks are an InitPlan (a one-time filter that
#: runs before the wallets are scanned), taken in address id order; then the wallets' rows,
#: locked as they leave the sort (LockRows above Sort), in wallet id order.
_LOCK_WALLETS = """
WITH addresses AS MATERIALIZED (
    SELECT a.id FROM wallet_addresses a
    WHERE a.id IN (SELECT address_id FROM wallets WHERE id = ANY($1::uuid[]))
    ORDER BY a.id FOR NO KEY UPDATE
)
SELECT w.* FROM wallets w
WHERE w.id = ANY($1::uuid[]) AND (SELECT count(*) FROM addresses) >= 0
ORDER BY w.id FOR NO KEY UPDATE
"""


async def lock_wallets(wallet_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Wallet]:
    """Lock the wallets and their addresses for this transaction, addresses first, each by id.

    Every balance writer uses this one order, so two writers touching overlapping wallets wait
    for each other instead of deadlocking.
    """
    ids = sorted(set(wallet_ids))
    if not ids:
        return {}
    rows = await connections.get("default").execute_query_dict(_LOCK_WALLETS, [ids])
    wallets = [Wallet._init_from_db(**row) for row in rows]  # noqa: SLF001  (tortoise's own row → model)
    return {w.id: w for w in wallets}


#: The wallet's new parts and its address's next balance_version in one statement (both rows are
#: locked already: lock_wallets).
_APPLY_CHANGE = """
WITH version AS (
    UPDATE wallet_addresses SET balance_version = balance_version + 1, updated_at = $6 WHERE id = $7
    RETURNING balance_version
)
UPDATE wallets SET total = $2, frozen = $3, held = $4, block_height = $5, updated_at = $6
FROM version WHERE wallets.id = $1
RETURNING version.balance_version
"""


#: The same, taking the next change-log position of this database transaction on the way
#: (core/commit_order.py; one row returned: one position).
_APPLY_CHANGE_TAKING_POSITION = _APPLY_CHANGE.rstrip() + f", {NEXT_POSITION_SQL} AS position\n"


async def apply_change(
    *, wallet: Wallet, total: int = 0, frozen: int = 0, held: int = 0, block_height: int | None = None
) -> int:
    """Add the deltas to a wallet locked by :func:`lock_wallets`; returns the new balance_version.

    The parts never go negative and available never drops below zero through frozen or held
    (409 INSUFFICIENT_BALANCE); a deposit (positive total) is always accepted.
    """
    return (await _apply(wallet, total, frozen, held, block_height, _APPLY_CHANGE))[0]


async def apply_change_taking_position(
    *, wallet: Wallet, total: int = 0, frozen: int = 0, held: int = 0, block_height: int | None = None
) -> tuple[int, int]:
    """:func:`apply_change`, and the next change-log position of this database transaction taken in
    the same statement: returns ``(balance_version, position)``."""
    return await _apply(wallet, total, frozen, held, block_height, _APPLY_CHANGE_TAKING_POSITION)


async def _apply(wallet: Wallet, total: int, frozen: int, held: int, block_height: int | None,
                 sql: str) -> tuple[int, int]:
    before = parts_of(wallet)
    after = BalanceParts(before.total + total, before.frozen + frozen, before.held + held,
                         max(before.block_height, block_height or 0))
    if min(after.total, after.frozen, after.held) < 0 or (after.available < 0 and after.available < before.available):
        raise _not_covered(wallet.id, before)
    wallet.total, wallet.frozen, wallet.held = after.total, after.frozen, after.held
    wallet.block_height = after.block_height
    wallet.updated_at = clock.now()
    rows = await connections.get("default").execute_query_dict(sql, [
        wallet.id, after.total, after.frozen, after.held, after.block_height, wallet.updated_at,
        wallet.address_id])
    return int(rows[0]["balance_version"]), int(rows[0].get("position") or 0)


#: A hold on one wallet that is not locked yet, in one statement: its address is locked by the
#: update of its balance_version (a CTE the wallet's update joins, so it runs first: the lock
#: order of lock_wallets), then the wallet's row by its own update, which takes the hold only
#: while available covers it (checked on the row's latest version once locked), and the
#: change-log position of this database transaction. No row: available did not cover it.
_HOLD_TAKING_POSITION = f"""
WITH version AS (
    UPDATE wallet_addresses SET balance_version = balance_version + 1, updated_at = $3
    WHERE id = (SELECT address_id FROM wallets WHERE id = $1)
    RETURNING balance_version
)
UPDATE wallets w SET held = w.held + $2, updated_at = $3
FROM version
WHERE w.id = $1 AND w.total - w.frozen - w.held >= $2
RETURNING w.*, version.balance_version AS "version.balance_version", {NEXT_POSITION_SQL} AS "version.position"
"""


async def hold_taking_position(*, wallet_id: uuid.UUID, held: int) -> tuple[Wallet, int, int]:
    """Lock a wallet (and its address, in :func:`lock_wallets`'s order) and move ``held`` (> 0)
    from available into held, in one statement that also takes the next change-log position of
    this database transaction: returns the wallet as written, its address's new balance_version
    and the position. 409 INSUFFICIENT_BALANCE when available does not cover ``held`` (the
    caller's transaction must then roll back: the address's version was raised).

    For a writer whose only balance change is this hold, with no other wallet to lock (one lock
    round trip less than :func:`lock_wallets` then :func:`apply_change_taking_position`)."""
    if held <= 0:
        raise ValueError("a hold moves a positive amount")
    rows = await connections.get("default").execute_query_dict(_HOLD_TAKING_POSITION, [wallet_id, held, clock.now()])
    if not rows:
        raise _not_covered(wallet_id, parts_of(await Wallet.get(id=wallet_id)))
    row = dict(rows[0])
    version, position = int(row.pop("version.balance_version")), int(row.pop("version.position"))
    return Wallet._init_from_db(**row), version, position  # noqa: SLF001  (tortoise's own row → model)


# --------------------------------------------------------------------------------------------
# Aggregates and the snapshot
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CurrencyTotal:
    currency: Currency
    parts: BalanceParts


async def currency_totals(*, workspace_id: uuid.UUID) -> list[CurrencyTotal]:
    """Balances of the workspace summed per currency (registry order: network, native first, symbol)."""
    rows = await connections.get("default").execute_query_dict(
        "SELECT currency_id, sum(total) AS total, sum(frozen) AS frozen, sum(held) AS held, "
        "max(block_height) AS block_height FROM wallets WHERE workspace_id = $1 GROUP BY currency_id",
        [workspace_id],
    )
    return _totals(rows)


def _totals(rows: Iterable[dict[str, Any]]) -> list[CurrencyTotal]:
    found = []
    for row in rows:
        currency = registry().currencies.get(row["currency_id"])
        if currency is None:
            continue  # a currency removed from the registry: not shown (its wallets stay in the database)
        found.append(CurrencyTotal(currency, BalanceParts(int(row["total"]), int(row["frozen"]), int(row["held"]),
                                                          int(row["block_height"] or 0))))
    return sorted(found, key=lambda t: (t.currency.network.id, not t.currency.is_native, t.currency.symbol))


@dataclass(frozen=True)
class WalletBalance:
    wallet_id: uuid.UUID
    vault_id: uuid.UUID
    currency_id: str
    network: str
    address: str
    balance_version: int
    parts: BalanceParts


@dataclass(frozen=True)
class Snapshot:
    currency_balances: list[CurrencyTotal]
    cursor: int
    min_cursor: int
    snapshot_at: datetime
    wallets: list[WalletBalance] | None = None
    #: The last wallet of a full page of ``wallets``: ask again with it as ``wallets_after``.
    next_wallets_after: uuid.UUID | None = None


_SNAPSHOT_TOTALS = """
WITH log AS (
    SELECT {horizon} - 1 AS position,
           coalesce((SELECT min_cursor FROM transaction_change_logs WHERE workspace_id = $1), 0) AS min_cursor
)
SELECT log.position, log.min_cursor, b.currency_id, b.total, b.frozen, b.held, b.block_height
FROM log LEFT JOIN (
    SELECT currency_id, sum(total) AS total, sum(frozen) AS frozen, sum(held) AS held,
           max(block_height) AS block_height
    FROM wallets WHERE workspace_id = $1 GROUP BY currency_id
) b ON true
""".replace("{horizon}", HORIZON_SQL)

#: Per-wallet balances, one page of them (keyset on created_at, id), with the workspace's totals
#: and the change-log position: one statement, so all three are one state.
_SNAPSHOT_WALLETS = """
WITH log AS (
    SELECT {horizon} - 1 AS position,
           coalesce((SELECT min_cursor FROM transaction_change_logs WHERE workspace_id = $1), 0) AS min_cursor
), totals AS (
    SELECT currency_id, sum(total) AS total, sum(frozen) AS frozen, sum(held) AS held,
           max(block_height) AS block_height
    FROM wallets WHERE workspace_id = $1 GROUP BY currency_id
), page AS (
    SELECT w.id, w.vault_id, w.currency_id, w.total, w.frozen, w.held, w.block_height, w.created_at,
           a.network, a.address, a.balance_version
    FROM wallets w JOIN wallet_addresses a ON a.id = w.address_id
    WHERE w.workspace_id = $1
      AND ($2::uuid IS NULL OR (w.created_at, w.id) > (
          SELECT created_at, id FROM wallets WHERE id = $2::uuid AND workspace_id = $1))
    ORDER BY w.created_at, w.id
    LIMIT $3
)
SELECT log.position, log.min_cursor,
       (SELECT coalesce(json_agg(t), '[]'::json) FROM totals t)::text AS totals,
       (SELECT coalesce(json_agg(p ORDER BY p.created_at, p.id), '[]'::json) FROM page p)::text AS page
FROM log
""".replace("{horizon}", HORIZON_SQL)

#: Most per-wallet balances one snapshot answers (``wallets_limit``).
MAX_WALLETS_PAGE = 1000


async def snapshot(*, principal: Principal | None, workspace_id: uuid.UUID, include_wallets: bool = False,
                   wallets_limit: int = MAX_WALLETS_PAGE, wallets_after: uuid.UUID | None = None) -> Snapshot:
    """GET /asset/balances/currencies: per-currency balances with the change-log cursor.

    One SQL statement reads the balances and the cursor, so they are one consistent state:
    the balances include every change at positions up to ``cursor`` (perhaps some after it). With
    ``include_wallets`` one page of per-wallet balances (at most ``wallets_limit``, after the
    wallet ``wallets_after`` in creation order) comes from the same state; ``next_wallets_after``
    names the last wallet of a full page. A client that pages seeds each wallet from its page
    and continues the change log from the *first* page's cursor (docs/wallets.md).
    """
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    conn = connections.get("default")
    taken_at = clock.now()
    if not include_wallets:
        rows = await conn.execute_query_dict(_SNAPSHOT_TOTALS, [workspace_id])
        totals = _totals(r for r in rows if r["currency_id"] is not None)
        return Snapshot(totals, int(rows[0]["position"]), int(rows[0]["min_cursor"]), taken_at)
    limit = max(1, min(wallets_limit, MAX_WALLETS_PAGE))
    (row,) = await conn.execute_query_dict(_SNAPSHOT_WALLETS, [workspace_id, wallets_after, limit + 1])
    page = json.loads(row["page"])
    wallets = [
        WalletBalance(
            wallet_id=uuid.UUID(r["id"]), vault_id=uuid.UUID(r["vault_id"]), currency_id=r["currency_id"],
            network=r["network"], address=r["address"], balance_version=int(r["balance_version"]),
            parts=BalanceParts(int(r["total"]), int(r["frozen"]), int(r["held"]), int(r["block_height"])),
        )
        for r in page[:limit]
    ]
    next_after = wallets[-1].wallet_id if len(page) > limit else None
    return Snapshot(_totals(json.loads(row["totals"])), int(row["position"]), int(row["min_cursor"]), taken_at,
                    wallets, next_after)


async def workspace_totals(*, principal: Principal, workspace_id: uuid.UUID) -> list[CurrencyTotal]:
    """Per-currency totals (GET /asset/balances and /asset/totals)."""
    principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    return await currency_totals(workspace_id=workspace_id)


def converted_total(totals: Iterable[CurrencyTotal]) -> Converted | None:
    """The fiat sum of the totals that have a price (None when none has one)."""
    result: Converted | None = None
    for item in totals:
        converted = convert(item.parts, item.currency)
        if converted is not None:
            result = converted if result is None else result + converted
    return result
