"""Transactions of workspace wallets and the change log that serves them.

Positions (core/commit_order.py)
    Every write of a transaction (its creation, and each later change) gives it a fresh position
    ``seq`` = ``xid << 16 | ordinal``: the writing database transaction's id and the order in
    which that transaction took its positions (:data:`POSITION_SQL`, computed by PostgreSQL in
    the very statement that writes the row). No counter, no lock: writers of one workspace never
    wait for each other. Positions of one database transaction follow the order it wrote them in
    (a block's deposits in chain order).

Reading below the horizon
    A reader serves only positions below the horizon (``xmin << 16`` of the snapshot of the
    statement that reads, :data:`HORIZON_SQL`): every database transaction with a smaller id has
    ended, so no position below the horizon can appear later. A reader paging by ``seq``
    therefore never meets a gap that a slower writer fills behind its cursor. A transaction still
    open anywhere on the PostgreSQL server holds the horizon back: changes behind it are served
    late, never lost or reordered (docs/wallets.md).

Change log (GET /transactions/changes)
    One SQL statement reads the horizon, ``min_cursor`` and the page: transactions of the
    workspace with ``since_cursor < seq < horizon`` in ``seq`` order, one item per transaction
    in its current state (a transaction written again moves to its new position).
    ``next_cursor`` is the position of the last item (or ``since_cursor`` when there is none).
    The horizon can step back a little between two statements (an id of another database that
    ended between a statement's snapshot and its look at ``pg_stat_activity`` cannot be placed,
    so it holds the horizon: core/commit_order.py), so a cursor handed out a moment ago may sit
    at or above the horizon now: that page is empty and ``next_cursor`` stays ``since_cursor``
    (everything up to it was final when it was handed out). Only a ``since_cursor`` at or above
    the snapshot's ``xmax << 16`` (:data:`HANDED_OUT_BOUND_SQL`, which never goes back and which
    every cursor ever handed out is below) was never handed out: 400 INVALID_CURSOR.

The balance snapshot's cursor (domain.balances.snapshot)
    ``horizon - 1`` of the statement that reads the balances: the balances include every change
    at or below it, and perhaps some after it (sync rule 3: re-applying is idempotent). Log and
    snapshot share this one position space.

Retention (``min_cursor``)
    :func:`compact` removes transactions whose last change is older than the retention
    (``CHANGELOG_RETENTION_DAYS``) from the log: below ``B = min(horizon, first recent change)``
    every change is final and old; it clears ``seq`` below ``B`` (skipping rows a writer holds:
    their next position is above the horizon anyway) and sets ``min_cursor`` to the highest
    position cleared. A client whose cursor is below ``min_cursor`` may have missed items that
    are gone: it gets 410 CURSOR_EXPIRED and resets from a balance snapshot (sync rule 6).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Iterable, Sequence

from tortoise import connections
from tortoise.expressions import Q

from core import clock
from core.clock import rfc3339
from core.commit_order import HANDED_OUT_BOUND_SQL, HORIZON_SQL, NEXT_POSITION_SQL
from domain import balances, prices
from domain import transaction_statuses as statuses
from domain.auth import Principal
from domain.balances import BalanceParts
from domain.currencies import Currency, format_amount, registry
from domain.errors import DomainError, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.webhooks import catalogue as webhook_events
from domain.webhooks.events import emit_event
from domain.webhooks.events import new_event as new_webhook_event
from models.transactions import Transaction
from models.vaults import Vault
from models.wallets import Wallet
from models.webhooks import WebhookEvent
from models.workspaces import Workspace

#: Scheduled actor: change-log retention (every CHANGELOG_COMPACTION_INTERVAL_SECONDS).
COMPACT_CHANGELOG = "transactions.compact_changelog"

DEPOSIT = "deposit"
WITHDRAWAL = "withdrawal"
#: A deposit is created final; the statuses and their transitions are in domain.transaction_statuses.
FINISHED = statuses.FINISHED
FINAL_STATUSES = statuses.FINAL

DEFAULT_PAGE = 100
MAX_PAGE = 1000


class CursorExpired(DomainError):
    """since_cursor is below min_cursor: the log cannot restore what was missed (sync rule 6)."""

    status = 410
    code = "CURSOR_EXPIRED"


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------


#: A SQL expression: the next change-log position of the current database transaction (takes
#: an ordinal: put it in the statement that writes the row, once per row written).
POSITION_SQL = NEXT_POSITION_SQL

_TAKE_POSITIONS = f"""
WITH taken AS MATERIALIZED (SELECT {POSITION_SQL} AS position FROM generate_series(1, $2::int)),
ranked AS (SELECT position, row_number() OVER (ORDER BY position) AS n FROM taken)
UPDATE transactions t SET seq = ranked.position
FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, n) JOIN ranked ON ranked.n = u.n
WHERE t.id = u.id RETURNING t.id, t.seq
"""


async def assign_positions(transactions: Sequence[Transaction]) -> None:
    """Give each written transaction its next position, in the order given, in one statement.

    No lock is taken (core/commit_order.py): call it anywhere in the writing transaction.
    """
    if not transactions:
        return
    rows = await connections.get("default").execute_query_dict(
        _TAKE_POSITIONS, [[tx.id for tx in transactions], len(transactions)])
    positions = {r["id"]: int(r["seq"]) for r in rows}
    for tx in transactions:
        tx.seq = positions[tx.id]


_TAKE_POSITION = f"UPDATE transactions SET seq = {POSITION_SQL} WHERE id = $1 RETURNING seq"


async def take_position(tx: Transaction) -> int:
    """Give a saved transaction its next position (one statement, no lock)."""
    rows = await connections.get("default").execute_query_dict(_TAKE_POSITION, [tx.id])
    tx.seq = int(rows[0]["seq"])
    return tx.seq


# --------------------------------------------------------------------------------------------
# Sides and the resource
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WalletState:
    """A wallet's balance and its address's balance_version, read together in one statement."""

    wallet_id: uuid.UUID
    vault_id: uuid.UUID
    currency_id: str
    address: str
    parts: BalanceParts
    balance_version: int


@dataclass(frozen=True)
class Named:
    """A vault or a workspace as a side names it: its id and its name, read with the wallets."""

    id: uuid.UUID
    name: str


@dataclass(frozen=True)
class WalletSides:
    """What :func:`wallet_states_and_position` read in its one statement."""

    states: dict[uuid.UUID, WalletState]
    #: The wallets' vaults and the workspace (one: a withdrawal never leaves its workspace).
    vaults: dict[uuid.UUID, Named]
    workspace: Named
    #: The change-log position this database transaction takes.
    position: int


#: The wallets' balances and their addresses' balance versions, the names the sides carry (each
#: wallet's vault, the workspace), and the next change-log position of this database transaction
#: taken on the way (a materialized CTE: exactly one position, whatever the number of wallets).
_WALLET_STATES_AND_POSITION = f"""
WITH taken AS MATERIALIZED (SELECT {POSITION_SQL} AS position)
SELECT taken.position, s.* FROM taken LEFT JOIN (
    SELECT w.id, w.vault_id, w.currency_id, w.total, w.frozen, w.held, w.block_height, a.address,
           a.balance_version, v.name AS vault_name, v.workspace_id, ws.name AS workspace_name
    FROM wallets w JOIN wallet_addresses a ON a.id = w.address_id
    JOIN vaults v ON v.id = w.vault_id JOIN workspaces ws ON ws.id = v.workspace_id
    WHERE w.id = ANY($1::uuid[])
) s ON true
"""


async def wallet_states_and_position(wallet_ids: Iterable[uuid.UUID]) -> WalletSides:
    """Balances and balance versions of the wallets as one consistent state, the names of their
    vaults and workspace, and the next position of this database transaction, in one statement:
    for a writer that stores the position with the rest of its change
    (domain.withdrawals.ledger). One statement sees one snapshot, so a balance is never paired
    with the version of another moment (a client orders absolute balances by that version, sync
    rule 2); the names are read with them, so a side needs no read of its vault or workspace."""
    rows = await connections.get("default").execute_query_dict(_WALLET_STATES_AND_POSITION,
                                                               [sorted(set(wallet_ids))])
    found = [r for r in rows if r["id"] is not None]
    if not found:
        raise LookupError("none of the wallets exists")
    return WalletSides(states=_states(found), vaults={r["vault_id"]: Named(r["vault_id"], r["vault_name"]) for r in found},
                       workspace=Named(found[0]["workspace_id"], found[0]["workspace_name"]),
                       position=int(rows[0]["position"]))


def _states(rows: Iterable[dict[str, Any]]) -> dict[uuid.UUID, WalletState]:
    return {r["id"]: WalletState(
        wallet_id=r["id"], vault_id=r["vault_id"], currency_id=r["currency_id"], address=r["address"],
        parts=BalanceParts(int(r["total"]), int(r["frozen"]), int(r["held"]), int(r["block_height"])),
        balance_version=int(r["balance_version"]),
    ) for r in rows}


def wallet_side(*, state: WalletState, vault: Vault | Named, workspace: Workspace | Named,
                currency: Currency) -> dict[str, Any]:
    """A side on a workspace wallet: its absolute balance and balance_version (sync rule 2)."""
    return {
        "address": state.address,
        "balance": balances.amounts(state.parts, currency.decimals),
        "balance_version": state.balance_version,
        "block_height": state.parts.block_height,
        "external": False,
        "wallet_id": str(state.wallet_id),
        "currency_id": currency.id,
        "vault_id": str(vault.id),
        "vault_name": vault.name,
        "whitelisted_wallet_name": None,
        "workspace_id": str(workspace.id),
        "workspace_name": workspace.name,
    }


def own_side(*, address: str, wallet: Wallet, vault: Vault, workspace: Workspace, currency: Currency,
             balance_version: int) -> dict[str, Any]:
    """A side on a wallet locked by this transaction: the absolute balance after the change."""
    state = WalletState(wallet_id=wallet.id, vault_id=wallet.vault_id, currency_id=currency.id,
                        address=address, parts=balances.parts_of(wallet), balance_version=balance_version)
    return wallet_side(state=state, vault=vault, workspace=workspace, currency=currency)


def external_side(*, address: str | None, block_height: int | None,
                  whitelisted_wallet_name: str | None = None) -> dict[str, Any]:
    """A counterparty side: no balance, no vault (nothing about another workspace leaks)."""
    return {
        "address": address, "balance": None, "balance_version": None, "block_height": block_height,
        "external": True, "vault_id": None, "vault_name": None, "whitelisted_wallet_name": whitelisted_wallet_name,
        "workspace_id": None, "workspace_name": None,
    }


def usd_value(currency: Currency, amount: int) -> str | None:
    """``amount``'s value from the price table (amount_usdt), None without a price."""
    price = prices.price_source().price(currency.id)
    if price is None:
        return None
    return prices.format_fiat(prices.convert(amount, decimals=currency.decimals, price=price))


def to_resource(tx: Transaction) -> dict[str, Any]:
    """The Transaction resource (every required field, the optional ones that apply)."""
    currency = registry().currencies.get(tx.currency_id)
    fee_currency = registry().currencies.get(tx.fee_currency_id)
    decimals = currency.decimals if currency else 0
    fee_decimals = fee_currency.decimals if fee_currency else decimals
    network = registry().networks.get(tx.network)
    return {
        "id": str(tx.id),
        "type": tx.direction,
        "status": tx.status,
        "workspace_id": str(tx.workspace_id),
        "vault_id": str(tx.vault_id),
        "wallet_id": str(tx.wallet_id),
        "currency_id": tx.currency_id,
        "symbol": currency.symbol if currency else tx.currency_id,
        "descriptor": currency.descriptor if currency else None,
        "decimals": decimals,
        "blockchain_name": network.blockchain_name if network else tx.network,
        "network_id": tx.network,
        "amount": str(int(tx.amount)),
        "formatted_amount": format_amount(int(tx.amount), decimals),
        "amount_usdt": tx.amount_usdt,
        "fee": str(int(tx.fee)),
        "formatted_fee": format_amount(int(tx.fee), fee_decimals),
        "fee_limit": str(int(tx.fee_limit)),
        "formatted_fee_limit": format_amount(int(tx.fee_limit), fee_decimals),
        "fee_asset_id": tx.fee_currency_id,
        "fee_rate": None if tx.fee_rate is None else str(int(tx.fee_rate)),
        "from": tx.from_side,
        "to": tx.to_side,
        "fee_payer": tx.fee_payer_side,
        "destination_type": tx.destination_type,
        "tx_hash": tx.tx_hash,
        "external_link": network.explorer_link(tx.tx_hash) if network else None,
        "block_height": tx.block_height,
        "block_time": rfc3339(tx.block_time),
        "confirmations": tx.confirmations,
        "required_confirmations": network.confirmations if network and tx.direction == WITHDRAWAL else None,
        "balance_version": tx.balance_version,
        "seq": tx.seq,
        "idempotency_key": tx.idempotency_key,
        "attempt_key": tx.attempt_key,
        "attempt_number": tx.attempt_number,
        "retry_of": None if tx.retry_of_id is None else str(tx.retry_of_id),
        "utxo_intent_key": tx.utxo_intent_key,
        "created_by": None if tx.created_by is None else str(tx.created_by),
        "error_code": tx.error_code,
        "error_message": tx.error_message,
        "expires_at": rfc3339(tx.expires_at) if tx.status in statuses.LIVE and tx.direction == WITHDRAWAL else None,
        "aml_screening": tx.aml_screening,
        "awaiting_gas": bool(tx.awaiting_gas),
        "created_at": rfc3339(tx.created_at),
        "updated_at": rfc3339(tx.updated_at),
    }


def event_type_of(tx: Transaction, *, created: bool) -> str:
    """``transaction.created`` for a new transaction, ``transaction.<final status>`` when a
    withdrawal ends, ``transaction.updated`` for any other change (docs/withdrawals.md)."""
    if created:
        return webhook_events.TRANSACTION_CREATED
    return webhook_events.FINAL_STATUS_EVENTS.get(tx.status, webhook_events.TRANSACTION_UPDATED)


def new_event(tx: Transaction, *, created: bool) -> WebhookEvent:
    """The transaction's webhook event, not yet written (the caller writes it with the row)."""
    return new_webhook_event(workspace_id=tx.workspace_id,
                             event_type=event_type_of(tx, created=created), data=to_resource(tx))


async def publish(tx: Transaction, *, created: bool) -> None:
    """The transaction's webhook event, in the caller's transaction (after the position is
    assigned, so the event carries ``seq``)."""
    await emit_event(workspace_id=tx.workspace_id,
                     event_type=event_type_of(tx, created=created), data=to_resource(tx))


# --------------------------------------------------------------------------------------------
# The change log
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChangesPage:
    items: list[Transaction]
    next_cursor: int
    has_more: bool
    min_cursor: int


#: The largest cursor: a signed 64-bit position (core/commit_order.py).
MAX_CURSOR = 2**63 - 1


def parse_cursor(raw: Any, name: str = "since_cursor") -> int | None:
    """A cursor from a query string: a non-negative integer (400 INVALID_CURSOR otherwise)."""
    if raw is None or raw == "":
        return None
    text = str(raw).strip()
    # isascii: str.isdigit() also accepts digits int() refuses (①, superscripts).
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > MAX_CURSOR:
        raise ValidationFailed(f"{name} must be a cursor returned by this API (a non-negative integer)",
                               code="INVALID_CURSOR", details={"field": name, "reason": "malformed"})
    return int(text)


_MIN_CURSOR = "(SELECT min_cursor FROM transaction_change_logs WHERE workspace_id = $1)"

_LOG_STATE = f"SELECT {HORIZON_SQL} - 1 AS position, coalesce({_MIN_CURSOR}, 0) AS min_cursor"

#: One page and the log's state (its horizon and min_cursor) in one statement, so one snapshot:
#: the page holds only final positions, and a compaction that removed rows of it shows in
#: min_cursor.
_CHANGES = f"""
SELECT h.horizon, h.bound, coalesce({_MIN_CURSOR}, 0) AS log_min_cursor, t.*
FROM (SELECT {HORIZON_SQL} AS horizon, {HANDED_OUT_BOUND_SQL} AS bound) h
LEFT JOIN LATERAL (
    SELECT * FROM transactions
    WHERE workspace_id = $1 AND seq > $2 AND seq < h.horizon ORDER BY seq LIMIT $3
) t ON true
ORDER BY t.seq
"""


async def log_state(workspace_id: uuid.UUID) -> tuple[int, int]:
    """(position, min_cursor) of the workspace's log: ``position`` is the last final position of
    the server (horizon - 1, the same for every workspace), ``min_cursor`` 0 before a compaction."""
    (row,) = await connections.get("default").execute_query_dict(_LOG_STATE, [workspace_id])
    return int(row["position"]), int(row["min_cursor"])


def _from_row(row: dict[str, Any]) -> Transaction:
    columns = {k: v for k, v in row.items() if k not in ("horizon", "bound", "log_min_cursor")}
    return Transaction._init_from_db(**columns)  # noqa: SLF001  (tortoise's own row → model)


async def changes(*, principal: Principal | None, workspace_id: uuid.UUID, since_cursor: int | None,
                  limit: int = DEFAULT_PAGE) -> ChangesPage:
    """One page of the change log after ``since_cursor`` (see the module docstring)."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if not 1 <= limit <= MAX_PAGE:
        raise ValidationFailed(f"limit must be between 1 and {MAX_PAGE}", code="VALIDATION_ERROR",
                               details={"field": "limit", "reason": f"must be between 1 and {MAX_PAGE}"})
    since = since_cursor or 0
    rows = await connections.get("default").execute_query_dict(_CHANGES, [workspace_id, since, limit + 1])
    horizon, min_cursor = int(rows[0]["horizon"]), int(rows[0]["log_min_cursor"])
    if since >= int(rows[0]["bound"]):  # (at or above the horizon only: an empty page, see above)
        raise ValidationFailed("since_cursor is ahead of the log: it was not returned by this API",
                               code="INVALID_CURSOR",
                               details={"field": "since_cursor", "reason": "ahead of the log", "cursor": horizon - 1})
    if since < min_cursor:
        raise CursorExpired(
            "since_cursor is below min_cursor: changes before min_cursor are no longer kept; take a fresh "
            "balance snapshot (GET /api/v1/asset/balances/currencies) and continue from its cursor",
            details={"since_cursor": since, "min_cursor": min_cursor,
                     "snapshot": "/api/v1/asset/balances/currencies"},
        )
    items = [_from_row(r) for r in rows if r["id"] is not None]  # at most limit + 1 (the query's LIMIT)
    page = items[:limit]
    return ChangesPage(items=page, next_cursor=page[-1].seq if page else since,
                       has_more=len(items) > limit, min_cursor=min_cursor)


_COMPACT_BOUNDS = f"""
WITH bound AS (
    SELECT least({HORIZON_SQL},
                 coalesce((SELECT min(seq) FROM transactions
                           WHERE workspace_id = $1 AND seq IS NOT NULL AND updated_at >= $2), {MAX_CURSOR})) AS below
)
SELECT bound.below, (SELECT max(seq) FROM transactions WHERE workspace_id = $1 AND seq < bound.below) AS last_old,
       coalesce({_MIN_CURSOR}, 0) AS min_cursor
FROM bound
"""

#: Rows a writer holds are skipped: the writer gives them a position above the horizon anyway
#: (or, rolled back, leaves one below min_cursor that no reader is served and the next run clears).
_COMPACT_CLEAR = """
UPDATE transactions SET seq = NULL WHERE id IN (
    SELECT id FROM transactions WHERE workspace_id = $1 AND seq IS NOT NULL AND seq <= $2
    FOR NO KEY UPDATE SKIP LOCKED)
"""

_COMPACT_MOVE = """
INSERT INTO transaction_change_logs (id, workspace_id, min_cursor, compacted_at, created_at, updated_at)
VALUES ($1, $2, $3, $4, $4, $4)
ON CONFLICT (workspace_id) DO UPDATE
SET min_cursor = greatest(transaction_change_logs.min_cursor, EXCLUDED.min_cursor),
    compacted_at = EXCLUDED.compacted_at, updated_at = EXCLUDED.updated_at
RETURNING min_cursor
"""


async def compact(*, workspace_id: uuid.UUID, retention: timedelta) -> int:
    """Drop changes older than ``retention`` from the workspace's log; returns the new min_cursor.

    Takes no lock a writer waits for (see the module docstring).
    """
    cutoff = clock.now() - retention
    conn = connections.get("default")
    (bounds,) = await conn.execute_query_dict(_COMPACT_BOUNDS, [workspace_id, cutoff])
    last_old = bounds["last_old"]
    if last_old is None:  # nothing to drop: the log's min_cursor as it stands, read by the same statement
        return int(bounds["min_cursor"])
    await conn.execute_query(_COMPACT_CLEAR, [workspace_id, int(last_old)])
    (row,) = await conn.execute_query_dict(_COMPACT_MOVE, [uuid.uuid4(), workspace_id, int(last_old), clock.now()])
    return int(row["min_cursor"])


async def compactable_workspaces() -> list[uuid.UUID]:
    """Workspaces with changes in their log."""
    rows = await connections.get("default").execute_query_dict(
        "SELECT w.id FROM workspaces w WHERE EXISTS ("
        " SELECT 1 FROM transactions t WHERE t.workspace_id = w.id AND t.seq IS NOT NULL) ORDER BY w.id")
    return [r["id"] for r in rows]


async def get_transaction(*, principal: Principal | None, workspace_id: uuid.UUID, transaction_id: uuid.UUID) -> Transaction:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    tx = await Transaction.get_or_none(id=transaction_id, workspace_id=workspace_id)
    if tx is None:
        raise NotFound("transaction not found", code="TRANSACTION_NOT_FOUND")
    return tx


def positions_of(items: Iterable[Transaction]) -> list[int]:
    return [int(tx.seq) for tx in items if tx.seq is not None]


# --------------------------------------------------------------------------------------------
# The filtered list (GET /transactions)
# --------------------------------------------------------------------------------------------

INCOMING, OUTGOING = "incoming", "outgoing"


@dataclass(frozen=True)
class TransactionFilter:
    """What GET /transactions narrows by; every field optional, all of them combined (AND).

    ``wallet_id`` / ``vault_id`` match the wallet or vault a transaction moves value out of or
    into (an internal transfer matches its source and its target). ``direction``: ``incoming``
    (deposits) or ``outgoing`` (withdrawals, internal transfers included). ``created_from`` is
    inclusive, ``created_to`` exclusive.
    """

    statuses: Sequence[str] = ()
    wallet_id: uuid.UUID | None = None
    vault_id: uuid.UUID | None = None
    direction: str | None = None
    created_from: datetime | None = None
    created_to: datetime | None = None


async def list_transactions(*, principal: Principal | None, workspace_id: uuid.UUID, filters: TransactionFilter,
                            limit: int = DEFAULT_PAGE, offset: int = 0) -> tuple[list[Transaction], int]:
    """One page of the workspace's transactions, newest first, and how many match."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if filters.created_from and filters.created_to and filters.created_from >= filters.created_to:
        raise ValidationFailed("created_from must be before created_to", code="VALIDATION_ERROR",
                               details={"field": "created_from", "reason": "must be before created_to"})
    query = Transaction.filter(workspace_id=workspace_id)
    if filters.statuses:
        query = query.filter(status__in=list(filters.statuses))
    if filters.wallet_id is not None:
        if not await Wallet.exists(id=filters.wallet_id, workspace_id=workspace_id):
            raise NotFound("wallet not found", code="WALLET_NOT_FOUND")
        query = query.filter(Q(wallet_id=filters.wallet_id) | Q(target_wallet_id=filters.wallet_id))
    if filters.vault_id is not None:
        if not await Vault.exists(id=filters.vault_id, workspace_id=workspace_id):
            raise NotFound("vault not found", code="VAULT_NOT_FOUND", details={"vault_id": str(filters.vault_id)})
        vault_wallets = await Wallet.filter(vault_id=filters.vault_id).values_list("id", flat=True)
        query = query.filter(Q(vault_id=filters.vault_id) | Q(target_wallet_id__in=list(vault_wallets)))
    if filters.direction is not None:
        query = query.filter(direction=DEPOSIT if filters.direction == INCOMING else WITHDRAWAL)
    if filters.created_from is not None:
        query = query.filter(created_at__gte=filters.created_from)
    if filters.created_to is not None:
        query = query.filter(created_at__lt=filters.created_to)
    total = await query.count()
    return await query.order_by("-created_at", "-id").offset(offset).limit(limit), total
