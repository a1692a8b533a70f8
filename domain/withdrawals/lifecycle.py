"""Freeze, unfreeze, cancel and expire: the ways a withdrawal is held or ended before signing.

* **Freeze** (APPROVE_TRANSACTION) a withdrawal in pending, checks, awaiting_approvals or
  approved: it becomes ``frozen``, remembers the status it left (``frozen_from``) and releases
  what it held. Freezing a frozen one changes nothing; after signing began it is 409
  TRANSACTION_NOT_FREEZABLE. A withdrawal whose vault is frozen when it would start signing is
  frozen the same way (``details.reason`` vault_frozen in the audit log).
* **Unfreeze** (APPROVE_TRANSACTION) returns it to ``frozen_from`` and holds its amounts again
  in the same database transaction (409 INSUFFICIENT_BALANCE / INSUFFICIENT_GAS when they are
  no longer available: it stays frozen); the vault must not be frozen (409 VAULT_FROZEN). The
  time it spent frozen is added to ``expires_at``, and the step it was at runs again.
* **Cancel**: only the user who created the withdrawal, before signing (pending, checks,
  awaiting_approvals, approved, frozen); cancelling a cancelled one answers it unchanged;
  anyone else is 403 TRANSACTION_CANCEL_NOT_ALLOWED; later statuses are 409
  TRANSACTION_NOT_CANCELLABLE.
* **Expire**: a withdrawal still before signing at ``expires_at`` (created +
  ``WITHDRAWAL_EXPIRY_SECONDS``) expires. A frozen one does not: it waits for whoever froze it.

Each releases through domain.withdrawals.ledger.release, which gives back what is held only
while ``holding`` is set: whatever the order of freeze, cancel and expiry, a hold is released
exactly once.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

from core import clock
from core.outbox import Command, add_command
from domain import transaction_statuses as statuses
from domain.auth import Principal
from domain.errors import Conflict, DomainError, NotFound
from domain.permissions import Permission
from domain.withdrawals import ledger
from domain.withdrawals.create import CHECK
from domain.withdrawals.pipeline import BROADCAST, COLLECT_SIGNATURE, SIGN, lock_withdrawal
from models.transactions import Transaction
from models.vaults import Vault

logger = logging.getLogger(__name__)

#: A step left this long without progress and without a live command is issued again (the sweep).
STALL_AFTER = timedelta(minutes=5)


class CancelNotAllowed(DomainError):
    status = 403
    code = "TRANSACTION_CANCEL_NOT_ALLOWED"


class NotCancellable(Conflict):
    code = "TRANSACTION_NOT_CANCELLABLE"


class NotFreezable(Conflict):
    code = "TRANSACTION_NOT_FREEZABLE"


class NotFrozen(Conflict):
    code = "TRANSACTION_NOT_FROZEN"


async def _locked(workspace_id: uuid.UUID, transaction_id: uuid.UUID) -> Transaction:
    tx = await Transaction.filter(id=transaction_id, workspace_id=workspace_id,
                                  direction="withdrawal").select_for_update().first()
    if tx is None:
        raise NotFound("transaction not found", code="TRANSACTION_NOT_FOUND")
    return tx


def _actor(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal else None


async def freeze(*, principal: Principal | None, workspace_id: uuid.UUID, transaction_id: uuid.UUID,
                 reason: str | None = None) -> Transaction:
    if principal is not None:
        principal.require(workspace_id, Permission.APPROVE_TRANSACTION)
    tx = await _locked(workspace_id, transaction_id)
    if tx.status == statuses.FROZEN:
        return tx
    if tx.status not in statuses.BEFORE_SIGNING:
        raise NotFreezable(f"a {tx.status} withdrawal cannot be frozen: freezing applies before signing",
                           details={"status": tx.status})
    parties = await ledger.load(tx, lock=True)
    await ledger.release(parties)
    tx.frozen_from, tx.frozen_at = tx.status, clock.now()
    return await ledger.write_change(parties, status=statuses.FROZEN, actor_id=_actor(principal),
                                     details={"reason": reason, "frozen_from": tx.frozen_from})


async def unfreeze(*, principal: Principal | None, workspace_id: uuid.UUID, transaction_id: uuid.UUID) -> Transaction:
    if principal is not None:
        principal.require(workspace_id, Permission.APPROVE_TRANSACTION)
    tx = await _locked(workspace_id, transaction_id)
    if tx.status != statuses.FROZEN:
        raise NotFrozen(f"the withdrawal is {tx.status}, not frozen", details={"status": tx.status})
    vault = await Vault.get(id=tx.vault_id)
    if vault.is_frozen:
        raise Conflict("the vault is frozen: unfreeze the vault first", code="VAULT_FROZEN",
                       details={"vault_id": str(vault.id)})
    parties = await ledger.load(tx, lock=True)
    await ledger.hold(parties)
    resumed = tx.frozen_from or statuses.PENDING
    if tx.expires_at is not None and tx.frozen_at is not None:
        tx.expires_at = tx.expires_at + (clock.now() - tx.frozen_at)
    tx.frozen_from, tx.frozen_at = None, None
    await ledger.write_change(parties, status=resumed, actor_id=_actor(principal), details={"resumed": resumed})
    await _resume(tx)
    return tx


#: The command that moves a withdrawal on from each status the pipeline drives.
STEP_OF_STATUS = {statuses.PENDING: CHECK, statuses.CHECKS: CHECK, statuses.APPROVED: SIGN,
                  statuses.SIGNING: COLLECT_SIGNATURE, statuses.AWAITING_BROADCAST: BROADCAST}


async def _resume(tx: Transaction) -> None:
    """Queue the step the withdrawal is at (after an unfreeze or when a step stalled)."""
    step = STEP_OF_STATUS.get(tx.status)
    if step is not None:
        payload: dict[str, object] = {"transaction_id": str(tx.id)}
        if step == COLLECT_SIGNATURE:
            payload["poll"] = 0
        await add_command(actor_name=step, payload=payload, workspace_id=tx.workspace_id)


async def cancel(*, principal: Principal | None, workspace_id: uuid.UUID, transaction_id: uuid.UUID) -> Transaction:
    if principal is not None:
        principal.require(workspace_id, Permission.CREATE_TRANSACTION)
    tx = await _locked(workspace_id, transaction_id)
    if principal is not None and tx.created_by != principal.user.id:
        raise CancelNotAllowed("only the user who created a withdrawal can cancel it")
    if tx.status == statuses.CANCELLED:
        return tx
    if tx.status not in statuses.BEFORE_SIGNING | {statuses.FROZEN}:
        raise NotCancellable(f"a {tx.status} withdrawal cannot be cancelled: cancelling applies before signing",
                             details={"status": tx.status})
    parties = await ledger.load(tx, lock=True)
    await ledger.release(parties)
    tx.error_code = None
    return await ledger.write_change(parties, status=statuses.CANCELLED, actor_id=_actor(principal))


async def expire(*, transaction_id: uuid.UUID) -> bool:
    """Expire one withdrawal if it is still before signing past its ``expires_at``."""
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status not in statuses.BEFORE_SIGNING or tx.expires_at is None or tx.expires_at > clock.now():
        return False
    parties = await ledger.load(tx, lock=True)
    await ledger.release(parties)
    tx.error_code, tx.error_message = "EXPIRED", "the withdrawal did not start signing before it expired"
    await ledger.write_change(parties, status=statuses.EXPIRED, actor_id=None,
                              details={"expires_at": tx.expires_at.isoformat()})
    return True


async def due_for_expiry(*, limit: int = 500) -> list[uuid.UUID]:
    return list(await Transaction.filter(direction="withdrawal", status__in=list(statuses.BEFORE_SIGNING),  # type: ignore[arg-type]  # flat values_list
                                         expires_at__lte=clock.now()).order_by("expires_at").limit(limit)
                .values_list("id", flat=True))


async def stalled(*, limit: int = 500) -> list[uuid.UUID]:
    """Withdrawals whose step made no progress for STALL_AFTER and has no live command.

    The outbox relay re-enqueues lost messages; this covers a command that failed for good (its
    retries spent, e.g. during a long outage), so no withdrawal waits forever.
    """
    cutoff = clock.now() - STALL_AFTER
    candidates = await Transaction.filter(
        direction="withdrawal", updated_at__lte=cutoff, status__in=list(STEP_OF_STATUS)).order_by(
        "updated_at").limit(limit).values_list("id", "status")
    found = []
    for transaction_id, status in candidates:
        live = await Command.filter(status__in=["pending", "running"], actor_name=STEP_OF_STATUS[status],
                                    payload__contains={"transaction_id": str(transaction_id)}).exists()
        if not live:
            found.append(transaction_id)
    return found


async def resume_stalled(*, transaction_id: uuid.UUID) -> bool:
    tx = await lock_withdrawal(transaction_id)
    if tx is None or tx.status in statuses.FINAL or tx.status in (statuses.FROZEN, statuses.AWAITING_APPROVALS,
                                                                   statuses.BROADCAST):
        return False
    if tx.status == statuses.APPROVED and tx.signing_session_id is not None:
        return False
    logger.warning("withdrawal %s: %s made no progress; issuing its step again", tx.id, tx.status)
    await _resume(tx)
    return True
