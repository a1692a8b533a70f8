"""Transactions of workspace wallets and the change log that serves them.

Positions
    Every write of a transaction (its creation, and each later change) takes the next position
    of its workspace with :func:`allocate_positions` and stores it as ``seq``. The positions
    come from one counter row per workspace (``transaction_change_logs``), incremented with
    ``UPDATE ... RETURNING``: the row stays locked until the writing transaction commits, so a
    second writer waits and commit order equals position order. A reader paging by ``seq``
    therefore never meets a gap that a slower writer fills later: nothing is skipped or
    reordered between pages, even under concurrent writers. Writers take this lock last (after
    their wallet locks) and keep the rest of their transaction short.

Change log (GET /transactions/changes)
    Transactions of the workspace with ``seq > since_cursor`` in ``seq`` order: one item per
    transaction in its current state (a transaction written again moves to its new position).
    ``next_cursor`` is the position of the last item returned (or ``since_cursor`` when
    there is none). The balance snapshot reports the same counter as its ``cursor``.

Retention (``min_cursor``)
    :func:`compact` removes transactions whose last change is older than the retention
    (``CHANGELOG_RETENTION_DAYS``) from the log: it picks the highest position P such that every
    change at or below P is older than the cutoff, clears ``seq`` up to P and sets
    ``min_cursor = P``. A client whose cursor is below ``min_cursor`` may have missed items that
    are gone: it gets 410 CURSOR_EXPIRED and resets from a balance snapshot (sync rule 6).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Iterable, Sequence

from tortoise import connections

from core import clock
from core.clock import rfc3339
from domain import balances
from domain.auth import Principal
from domain.currencies import Currency, format_amount, registry
from domain.errors import DomainError, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.webhooks import catalogue as webhook_events
from domain.webhooks.events import emit_event
from models.transactions import ChangeLog, Transaction
from models.vaults import Vault
from models.wallets import Wallet, WalletAddress
from models.workspaces import Workspace

#: Scheduled actor: change-log retention (every CHANGELOG_COMPACTION_INTERVAL_SECONDS).
COMPACT_CHANGELOG = "transactions.compact_changelog"

DEPOSIT = "deposit"
WITHDRAWAL = "withdrawal"
#: A deposit is created final. Withdrawal statuses follow the spec's list; these are final.
FINISHED = "finished"
FINAL_STATUSES = frozenset({"finished", "declined", "failed", "cancelled", "expired"})
IN_FLIGHT_STATUSES = frozenset({"pending", "awaiting_approvals", "approved", "awaiting_broadcast", "broadcast",
                                "frozen"})

DEFAULT_PAGE = 100
MAX_PAGE = 1000


class CursorExpired(DomainError):
    """since_cursor is below min_cursor: the log cannot restore what was missed (sync rule 6)."""

    status = 410
    code = "CURSOR_EXPIRED"


# --------------------------------------------------------------------------------------------
# Positions
# --------------------------------------------------------------------------------------------


async def allocate_positions(*, workspace_id: uuid.UUID, count: int = 1) -> list[int]:
    """Reserve ``count`` consecutive positions of the workspace's log (row lock held until commit)."""
    conn = connections.get("default")
    sql = ("UPDATE transaction_change_logs SET position = position + $2, updated_at = $3 "
           "WHERE workspace_id = $1 RETURNING position")
    rows = await conn.execute_query_dict(sql, [workspace_id, count, clock.now()])
    if not rows:
        now = clock.now()
        await conn.execute_query(
            "INSERT INTO transaction_change_logs (id, workspace_id, position, min_cursor, created_at, updated_at) "
            "VALUES ($1, $2, 0, 0, $3, $3) ON CONFLICT (workspace_id) DO NOTHING",
            [uuid.uuid4(), workspace_id, now],
        )
        rows = await conn.execute_query_dict(sql, [workspace_id, count, clock.now()])
    last = int(rows[0]["position"])
    return list(range(last - count + 1, last + 1))


async def assign_positions(transactions: Sequence[Transaction]) -> None:
    """Give each written transaction its next position (call last in the writing transaction).

    Workspaces are taken in id order so writers that touch several never deadlock.
    """
    by_workspace: dict[uuid.UUID, list[Transaction]] = {}
    for tx in transactions:
        by_workspace.setdefault(tx.workspace_id, []).append(tx)  # type: ignore[attr-defined]
    for workspace_id in sorted(by_workspace):
        items = by_workspace[workspace_id]
        for tx, position in zip(items, await allocate_positions(workspace_id=workspace_id, count=len(items))):
            tx.seq = position
            await Transaction.filter(id=tx.id).update(seq=position)


# --------------------------------------------------------------------------------------------
# Sides and the resource
# --------------------------------------------------------------------------------------------


def own_side(*, address: str, wallet: Wallet, vault: Vault, workspace: Workspace, currency: Currency,
             balance_version: int | None) -> dict[str, Any]:
    """A side on a workspace wallet: the absolute balance after the change (sync rule 2)."""
    parts = balances.parts_of(wallet)
    return {
        "address": address,
        "balance": balances.amounts(parts, currency.decimals),
        "balance_version": balance_version,
        "block_height": parts.block_height,
        "external": False,
        "wallet_id": str(wallet.id),
        "currency_id": currency.id,
        "vault_id": str(vault.id),
        "vault_name": vault.name,
        "whitelisted_wallet_name": None,
        "workspace_id": str(workspace.id),
        "workspace_name": workspace.name,
    }


def external_side(*, address: str | None, block_height: int | None) -> dict[str, Any]:
    """A counterparty side: no balance, no vault (nothing about another workspace leaks)."""
    return {
        "address": address, "balance": None, "balance_version": None, "block_height": block_height,
        "external": True, "vault_id": None, "vault_name": None, "whitelisted_wallet_name": None,
        "workspace_id": None, "workspace_name": None,
    }




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
        "workspace_id": str(tx.workspace_id),  # type: ignore[attr-defined]
        "vault_id": str(tx.vault_id),  # type: ignore[attr-defined]
        "wallet_id": str(tx.wallet_id),  # type: ignore[attr-defined]
        "currency_id": tx.currency_id,
        "symbol": currency.symbol if currency else tx.currency_id,
        "descriptor": currency.descriptor if currency else None,
        "decimals": decimals,
        "blockchain_name": network.blockchain_name if network else tx.network,
        "amount": str(int(tx.amount)),
        "formatted_amount": format_amount(int(tx.amount), decimals),
        "fee": str(int(tx.fee)),
        "formatted_fee": format_amount(int(tx.fee), fee_decimals),
        "fee_limit": str(int(tx.fee_limit)),
        "fee_asset_id": tx.fee_currency_id,
        "from": tx.from_side,
        "to": tx.to_side,
        "tx_hash": tx.tx_hash,
        "block_height": tx.block_height,
        "block_time": rfc3339(tx.block_time),
        "balance_version": tx.balance_version,
        "seq": tx.seq,
        "idempotency_key": tx.idempotency_key,
        "error_code": tx.error_code,
        "created_at": rfc3339(tx.created_at),
        "updated_at": rfc3339(tx.updated_at),
    }


async def publish(tx: Transaction, *, created: bool) -> None:
    """The ``transaction.created`` / ``transaction.updated`` webhook event, in the caller's
    transaction (after the position is assigned, so the event carries ``seq``)."""
    await emit_event(workspace_id=tx.workspace_id,  # type: ignore[attr-defined]
                              event_type=webhook_events.TRANSACTION_CREATED if created else webhook_events.TRANSACTION_UPDATED,
                              data=to_resource(tx))


# --------------------------------------------------------------------------------------------
# Outgoing transfers and ``held`` (the hook of the withdrawal pipeline)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Context:
    wallet: Wallet
    fee_wallet: Wallet
    address: WalletAddress
    vault: Vault
    workspace: Workspace
    currency: Currency


async def _outgoing_context(wallet_id: uuid.UUID, workspace_id: uuid.UUID, fee_currency_id: str) -> _Context:
    wallet = await Wallet.get_or_none(id=wallet_id, workspace_id=workspace_id)
    if wallet is None:
        raise NotFound("wallet not found", code="WALLET_NOT_FOUND")
    fee_wallet = wallet
    if fee_currency_id != wallet.currency_id:
        fee_wallet = await Wallet.get_or_none(vault_id=wallet.vault_id, currency_id=fee_currency_id)  # type: ignore[attr-defined]
        if fee_wallet is None:
            raise NotFound("the vault has no wallet of the fee currency", code="FEE_WALLET_NOT_FOUND",
                           details={"currency_id": fee_currency_id})
    locked = await balances.lock_wallets([wallet.id, fee_wallet.id])
    wallet, fee_wallet = locked[wallet.id], locked[fee_wallet.id]
    return _Context(wallet, fee_wallet, await WalletAddress.get(id=wallet.address_id),  # type: ignore[attr-defined]
                    await Vault.get(id=wallet.vault_id), await Workspace.get(id=workspace_id),  # type: ignore[attr-defined]
                    registry().currency(wallet.currency_id))


async def _hold(ctx: _Context, *, amount: int, fee: int, sign: int) -> int:
    """Move ``amount`` (+ ``fee`` when paid in the same currency) into or out of ``held``."""
    if ctx.fee_wallet.id == ctx.wallet.id:
        return await balances.apply_change(wallet=ctx.wallet, held=sign * (amount + fee))
    version = await balances.apply_change(wallet=ctx.wallet, held=sign * amount)
    await balances.apply_change(wallet=ctx.fee_wallet, held=sign * fee)
    return version


async def record_outgoing(
    *, workspace_id: uuid.UUID, wallet_id: uuid.UUID, to_address: str, amount: int, fee_limit: int,
    status: str = "pending", idempotency_key: str | None = None,
) -> Transaction:
    """Register an outgoing transfer in flight: ``amount`` (and the fee limit, in the fee
    currency's wallet) move from available into ``held``; the transaction enters the log."""
    if status not in IN_FLIGHT_STATUSES:
        raise ValidationFailed(f"an outgoing transfer starts in flight, not {status}", code="VALIDATION_ERROR")
    if amount <= 0 or fee_limit < 0:
        raise ValidationFailed("amount must be positive and fee_limit not negative", code="VALIDATION_ERROR")
    probe = await Wallet.get_or_none(id=wallet_id, workspace_id=workspace_id)
    if probe is None:
        raise NotFound("wallet not found", code="WALLET_NOT_FOUND")
    fee_currency = registry().native_currency(registry().currency(probe.currency_id).network.id)
    ctx = await _outgoing_context(wallet_id, workspace_id, fee_currency.id)
    version = await _hold(ctx, amount=amount, fee=fee_limit, sign=+1)
    tx = await Transaction.create(
        workspace_id=workspace_id, vault_id=ctx.vault.id, wallet_id=ctx.wallet.id, direction=WITHDRAWAL,
        status=status, currency_id=ctx.currency.id, network=ctx.currency.network.id, amount=amount, fee=0,
        fee_limit=fee_limit, fee_currency_id=fee_currency.id, from_address=ctx.address.address,
        to_address=to_address, balance_version=version, idempotency_key=idempotency_key,
        from_side=own_side(address=ctx.address.address, wallet=ctx.wallet, vault=ctx.vault, workspace=ctx.workspace,
                           currency=ctx.currency, balance_version=version),
        to_side=external_side(address=to_address, block_height=None),
    )
    await assign_positions([tx])
    await publish(tx, created=True)
    return tx


async def settle_outgoing(
    *, workspace_id: uuid.UUID, transaction_id: uuid.UUID, status: str, fee: int = 0,
    tx_hash: str | None = None, block_height: int | None = None, error_code: str | None = None,
) -> Transaction:
    """End an outgoing transfer: release ``held``; when ``finished`` also take amount and the
    actual fee out of ``total``. The transaction moves to a new log position."""
    if status not in FINAL_STATUSES:
        raise ValidationFailed(f"{status} is not a final status", code="VALIDATION_ERROR")
    tx = await Transaction.filter(id=transaction_id, workspace_id=workspace_id, direction=WITHDRAWAL).select_for_update().first()
    if tx is None:
        raise NotFound("transaction not found", code="TRANSACTION_NOT_FOUND")
    if tx.status in FINAL_STATUSES:
        return tx
    ctx = await _outgoing_context(tx.wallet_id, workspace_id, tx.fee_currency_id)  # type: ignore[attr-defined]
    amount, fee_limit = int(tx.amount), int(tx.fee_limit)
    version = await _hold(ctx, amount=amount, fee=fee_limit, sign=-1)
    if status == FINISHED:
        if ctx.fee_wallet.id == ctx.wallet.id:
            version = await balances.apply_change(wallet=ctx.wallet, total=-(amount + fee), block_height=block_height)
        else:
            version = await balances.apply_change(wallet=ctx.wallet, total=-amount, block_height=block_height)
            await balances.apply_change(wallet=ctx.fee_wallet, total=-fee, block_height=block_height)
    tx.status, tx.fee, tx.error_code = status, fee, error_code  # type: ignore[assignment]
    tx.tx_hash, tx.block_height, tx.balance_version = tx_hash or tx.tx_hash, block_height, version
    tx.from_side = own_side(address=ctx.address.address, wallet=ctx.wallet, vault=ctx.vault, workspace=ctx.workspace,
                            currency=ctx.currency, balance_version=version)
    tx.to_side = external_side(address=tx.to_address, block_height=block_height)
    await tx.save()
    await assign_positions([tx])
    await publish(tx, created=False)
    return tx


# --------------------------------------------------------------------------------------------
# The change log
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChangesPage:
    items: list[Transaction]
    next_cursor: int
    has_more: bool
    min_cursor: int


def parse_cursor(raw: Any, name: str = "since_cursor") -> int | None:
    """A cursor from a query string: a non-negative integer (400 INVALID_CURSOR otherwise)."""
    if raw is None or raw == "":
        return None
    text = str(raw).strip()
    # isascii: str.isdigit() also accepts digits int() refuses (①, superscripts).
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ValidationFailed(f"{name} must be a cursor returned by this API (a non-negative integer)",
                               code="INVALID_CURSOR", details={"field": name, "reason": "malformed"})
    return int(text)


async def log_state(workspace_id: uuid.UUID) -> tuple[int, int]:
    """(position, min_cursor) of the workspace's log; (0, 0) before its first transaction."""
    row = await ChangeLog.get_or_none(workspace_id=workspace_id)
    return (row.position, row.min_cursor) if row else (0, 0)


async def changes(*, principal: Principal | None, workspace_id: uuid.UUID, since_cursor: int | None,
                  limit: int = DEFAULT_PAGE) -> ChangesPage:
    """One page of the change log after ``since_cursor`` (see the module docstring).

    The rows are read before the log state: a compaction that could have removed rows of this
    page is then visible in ``min_cursor`` and answered with 410, never with a silent gap.
    """
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if not 1 <= limit <= MAX_PAGE:
        raise ValidationFailed(f"limit must be between 1 and {MAX_PAGE}", code="VALIDATION_ERROR",
                               details={"field": "limit", "reason": f"must be between 1 and {MAX_PAGE}"})
    since = since_cursor or 0
    rows = await Transaction.filter(workspace_id=workspace_id, seq__gt=since).order_by("seq").limit(limit + 1)
    position, min_cursor = await log_state(workspace_id)
    if since > position:
        raise ValidationFailed("since_cursor is ahead of this workspace's log (a cursor of another workspace?)",
                               code="INVALID_CURSOR",
                               details={"field": "since_cursor", "reason": "ahead of the log", "cursor": position})
    if since < min_cursor:
        raise CursorExpired(
            "since_cursor is below min_cursor: changes before min_cursor are no longer kept; take a fresh "
            "balance snapshot (GET /api/v1/asset/balances/currencies) and continue from its cursor",
            details={"since_cursor": since, "min_cursor": min_cursor,
                     "snapshot": "/api/v1/asset/balances/currencies"},
        )
    items = list(rows[:limit])
    return ChangesPage(items=items, next_cursor=items[-1].seq if items else since,  # type: ignore[arg-type]
                       has_more=len(rows) > limit, min_cursor=min_cursor)


async def compact(*, workspace_id: uuid.UUID, retention: timedelta) -> int:
    """Drop changes older than ``retention`` from the workspace's log; returns the new min_cursor."""
    log = await ChangeLog.filter(workspace_id=workspace_id).select_for_update(no_key=True).first()
    if log is None:
        return 0
    cutoff = clock.now() - retention
    conn = connections.get("default")
    rows = await conn.execute_query_dict(
        "SELECT min(seq) AS first_recent FROM transactions "
        "WHERE workspace_id = $1 AND seq IS NOT NULL AND updated_at >= $2",
        [workspace_id, cutoff],
    )
    first_recent = rows[0]["first_recent"]
    new_min = int(first_recent) - 1 if first_recent is not None else log.position
    if new_min <= log.min_cursor:
        return log.min_cursor
    await conn.execute_query(
        "UPDATE transactions SET seq = NULL WHERE workspace_id = $1 AND seq IS NOT NULL AND seq <= $2",
        [workspace_id, new_min],
    )
    log.min_cursor, log.compacted_at = new_min, clock.now()
    await log.save(update_fields=["min_cursor", "compacted_at"])
    return new_min


async def compactable_workspaces() -> list[uuid.UUID]:
    return list(await ChangeLog.all().order_by("workspace_id").values_list("workspace_id", flat=True))


async def get_transaction(*, principal: Principal | None, workspace_id: uuid.UUID, transaction_id: uuid.UUID) -> Transaction:
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    tx = await Transaction.get_or_none(id=transaction_id, workspace_id=workspace_id)
    if tx is None:
        raise NotFound("transaction not found", code="TRANSACTION_NOT_FOUND")
    return tx


def positions_of(items: Iterable[Transaction]) -> list[int]:
    return [int(tx.seq) for tx in items if tx.seq is not None]
