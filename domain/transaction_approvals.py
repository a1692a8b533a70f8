"""Transaction approvals: votes on withdrawals awaiting approvals (docs/policies.md).

When a withdrawal enters ``awaiting_approvals`` an approval request is opened with every
requirement found in its stored check results (``details.approval`` of each require_approval
result, from the policy or AML check: ``{approver_user_ids, group_id, threshold, source}``),
expiring after ``TRANSACTION_APPROVAL_EXPIRY_SECONDS``.

* **Four eyes** (maker and checker are different people; not configurable, the project's
  invariant): the withdrawal's initiator (``created_by``: the person behind a device token, or
  the API user whose key created it) is left out of every requirement when the request opens,
  and their vote is refused (403 TRANSACTION_VOTE_BY_INITIATOR). A requirement that can no
  longer reach its threshold without them (or whose group resolved to too few people) declines
  the withdrawal at once, ``error_code`` APPROVAL_UNREACHABLE, by the outbox command
  ``transaction_approvals.settle``: holding it would keep its funds and window room until expiry
  with no outcome possible but expiry.
* **Votes** come only from a paired device (403 TRANSACTION_VOTE_DEVICE_REQUIRED otherwise) of
  a user named by at least one requirement (403 TRANSACTION_VOTE_NOT_ALLOWED), whose rights are
  checked again at the vote: still a member, with an active role that uses a device, voting
  from an active device (403 TRANSACTION_VOTE_NOT_ALLOWED, ``details.reason``). One vote per
  user; the same vote again changes nothing; the opposite one is 409 TRANSACTION_VOTE_CONFLICT.
  A user's approve counts toward every requirement that names them.
* **Outcome**: the first decline by an eligible approver declines the withdrawal
  (APPROVAL_REJECTED); so does a requirement that can no longer reach its threshold. When every
  requirement has reached its threshold the withdrawal is approved and signing follows
  (domain.withdrawals.pipeline.resolve_approvals). Past ``expires_at`` the scheduler's sweep
  ends it ``expired`` (error_code APPROVAL_EXPIRED, what it held released).
* **Leaving otherwise** (cancelled, frozen, expired by the withdrawal's own limit): the request
  is ``closed``. An unfreeze back to awaiting_approvals reopens it with a fresh expiry; votes
  already cast still count.
* Every vote and outcome is audited (``transaction.approval_vote``, ``transaction.approvals_*``)
  and sent as a ``transaction.approval_voted`` webhook event (the transaction plus the vote);
  the status changes send their usual ``transaction.updated`` / ``transaction.declined`` /
  ``transaction.expired``.

Lock order: the withdrawal row, then its approval request (as every withdrawal step).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from core import clock
from core.outbox import add_command
from core.settings import get_settings
from domain import audit, transactions
from domain import transaction_statuses as statuses
from domain.auth import Principal
from domain.errors import Conflict, DomainError, NotFound
from domain.permissions import Permission, uses_device
from domain.policies.service import leave_out_initiator
from domain.webhooks.catalogue import TRANSACTION_APPROVAL_VOTED
from domain.webhooks.events import emit_event
from domain.withdrawals import ledger, pipeline
from models.auth import Device
from models.policies import TransactionApproval, TransactionApprovalVote
from models.transactions import Transaction
from models.users import WorkspaceMember

EXPIRE = "transaction_approvals.expire"
SETTLE = "transaction_approvals.settle"
APPROVE, DECLINE = "approve", "decline"
PENDING, APPROVED, DECLINED, EXPIRED, CLOSED = "pending", "approved", "declined", "expired", "closed"


class VoteDeviceRequired(DomainError):
    status = 403
    code = "TRANSACTION_VOTE_DEVICE_REQUIRED"


class VoteNotAllowed(DomainError):
    status = 403
    code = "TRANSACTION_VOTE_NOT_ALLOWED"


class VoteByInitiator(DomainError):
    status = 403
    code = "TRANSACTION_VOTE_BY_INITIATOR"


class VoteConflict(Conflict):
    code = "TRANSACTION_VOTE_CONFLICT"


class NotAwaitingApprovals(Conflict):
    code = "TRANSACTION_NOT_AWAITING_APPROVALS"


def requirements_of(tx: Transaction) -> list[dict[str, Any]]:
    """Every approval requirement of the stored check results (contract 1), in check order, with
    the withdrawal's initiator left out of its approvers (four eyes; ``initiator_excluded`` says
    whether the rule named them)."""
    initiator = str(tx.created_by) if tx.created_by else None
    found = []
    for result in tx.checks or []:
        approval = (result.get("details") or {}).get("approval") if result.get("verdict") == "require_approval" \
            else None
        if approval:
            requirement = leave_out_initiator(approval, initiator)
            found.append({"approver_user_ids": requirement["approver_user_ids"],
                          "group_id": approval.get("group_id"), "threshold": requirement["threshold"],
                          "source": approval.get("source") or result.get("check"),
                          "initiator_excluded": requirement["initiator_excluded"]})
    return found


def first_unmeetable(requirements: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first requirement with fewer approvers than its threshold (None: every one can be met)."""
    return next((r for r in requirements if len(r["approver_user_ids"]) < r["threshold"]), None)


async def on_transition(tx: Transaction, previous: str, status: str) -> None:
    """Open the request on entering awaiting_approvals; close it when the withdrawal leaves another way.

    A requirement that cannot be met from the start (the initiator left out) is declined right
    after this transaction commits (:func:`settle`): a listener does not move the withdrawal."""
    if status == statuses.AWAITING_APPROVALS:
        requirements = requirements_of(tx)
        approvers = sorted({u for r in requirements for u in r["approver_user_ids"]})
        expires_at = clock.now() + timedelta(seconds=get_settings().transaction_approval_expiry_seconds)
        existing = await TransactionApproval.filter(transaction_id=tx.id).select_for_update().first()
        if existing is None:
            await TransactionApproval.create(workspace_id=tx.workspace_id, transaction_id=tx.id,
                                             requirements=requirements, approver_ids=approvers, expires_at=expires_at)
        else:
            existing.status, existing.expires_at, existing.decided_at = PENDING, expires_at, None
            if previous != statuses.FROZEN:
                existing.requirements, existing.approver_ids = requirements, approvers
            await existing.save()
            requirements = existing.requirements
        if first_unmeetable(requirements) is not None:
            await add_command(actor_name=SETTLE, payload={"transaction_id": str(tx.id)},
                              workspace_id=tx.workspace_id)
    elif previous == statuses.AWAITING_APPROVALS:
        await TransactionApproval.filter(transaction_id=tx.id, status=PENDING).update(
            status=CLOSED, decided_at=clock.now(), updated_at=clock.now())


@dataclass
class Tally:
    """Where each requirement stands."""

    requirements: list[dict[str, Any]]
    approved: bool
    unreachable: dict[str, Any] | None


def tally(approval: TransactionApproval, votes: list[TransactionApprovalVote]) -> Tally:
    approves = {str(v.user_id) for v in votes if v.vote == APPROVE}
    declines = {str(v.user_id) for v in votes if v.vote == DECLINE}
    out, unreachable = [], None
    for req in approval.requirements:
        eligible = set(req["approver_user_ids"])
        got = len(eligible & approves)
        still_possible = got + len(eligible - approves - declines)
        out.append({**req, "approvals": got, "declines": len(eligible & declines),
                    "reached": got >= req["threshold"]})
        if still_possible < req["threshold"] and unreachable is None:
            unreachable = req
    return Tally(out, all(r["reached"] for r in out), unreachable)


async def _approval_of(workspace_id: uuid.UUID, transaction_id: uuid.UUID, *, lock: bool) -> tuple[Transaction, TransactionApproval]:
    query = Transaction.filter(id=transaction_id, workspace_id=workspace_id, direction="withdrawal")
    tx = await (query.select_for_update() if lock else query).first()
    approval_query = TransactionApproval.filter(transaction_id=transaction_id)
    approval = await (approval_query.select_for_update() if lock else approval_query).first()
    if tx is None or approval is None:
        raise NotFound("no approval request for this transaction", code="TRANSACTION_NOT_FOUND")
    return tx, approval


async def _check_voter(principal: Principal, workspace_id: uuid.UUID) -> None:
    """The voter's rights now: a member with an active role that uses a device, from an active
    device of theirs in this workspace (read again, not taken from the token's snapshot)."""
    access = principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if principal.device is None:
        raise VoteDeviceRequired("votes on transactions are accepted only from the approver's paired device")
    member = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=principal.user.id)
    if member is None or member.role_status != "ROLE_STATUS_ACTIVE" or not uses_device(member.role):
        raise VoteNotAllowed("your role no longer lets you vote from a device",
                             details={"reason": "role", "role": member.role if member else access.role})
    if not await Device.exists(id=principal.device.id, user_id=principal.user.id, workspace_id=workspace_id,
                               status="active"):
        raise VoteNotAllowed("this device is no longer active", details={"reason": "device"})


async def vote(*, principal: Principal, workspace_id: uuid.UUID, transaction_id: uuid.UUID, decision: str,
               reason: str | None = None) -> tuple[Transaction, TransactionApproval]:
    """An approver's vote from their paired device (see the module docstring)."""
    await _check_voter(principal, workspace_id)
    assert principal.device is not None
    tx, approval = await _approval_of(workspace_id, transaction_id, lock=True)
    user_id = str(principal.user.id)
    if tx.created_by is not None and str(tx.created_by) == user_id:
        raise VoteByInitiator("you initiated this withdrawal: another person must approve it (four eyes)")
    if user_id not in approval.approver_ids:
        raise VoteNotAllowed("you are not among the approvers of this transaction")
    existing = await TransactionApprovalVote.get_or_none(approval_id=approval.id, user_id=principal.user.id)
    if existing is not None:
        if existing.vote == decision:
            return tx, approval
        raise VoteConflict(f"you already voted {existing.vote} on this transaction",
                           details={"vote": existing.vote})
    if tx.status != statuses.AWAITING_APPROVALS or approval.status != PENDING:
        raise NotAwaitingApprovals(f"the transaction is {tx.status}: votes are taken while it awaits approvals",
                                   details={"status": tx.status, "approval_status": approval.status})
    await TransactionApprovalVote.create(approval_id=approval.id, user_id=principal.user.id,
                                         device_id=principal.device.id, vote=decision, reason=reason)
    votes = await TransactionApprovalVote.filter(approval_id=approval.id)
    state = tally(approval, votes)
    vote_details = {"user_id": user_id, "device_id": str(principal.device.id), "vote": decision, "reason": reason,
                    "requirements": state.requirements}
    await audit.record(action="transaction.approval_vote", object_type="transaction", object_id=tx.id,
                       actor_id=principal.user.id, actor_type="device", workspace_id=workspace_id,
                       details=vote_details)
    await emit_event(workspace_id=workspace_id, event_type=TRANSACTION_APPROVAL_VOTED,
                     data={**transactions.to_resource(tx), "approval_vote": vote_details})
    outcome: str | None = None
    if decision == DECLINE:
        outcome, why = DECLINED, f"declined by approver {user_id}" + (f": {reason}" if reason else "")
    elif state.unreachable is not None:
        outcome, why = DECLINED, f"the requirement {state.unreachable['source']} can no longer reach its threshold"
    elif state.approved:
        outcome, why = APPROVED, "every approval requirement reached its threshold"
    if outcome is not None:
        approval.status, approval.decided_at = outcome, clock.now()
        await approval.save()
        await audit.record(action=f"transaction.approvals_{outcome}", object_type="transaction", object_id=tx.id,
                           actor_id=principal.user.id, actor_type="device", workspace_id=workspace_id,
                           details={"reason": why, "requirements": state.requirements})
        resolved = await pipeline.resolve_approvals(transaction_id=tx.id, approved=outcome == APPROVED,
                                                    actor_id=principal.user.id, reason=why)
        tx = resolved or tx
    return tx, approval


async def settle(*, transaction_id: uuid.UUID | str) -> bool:
    """The command ``transaction_approvals.settle``: decline a withdrawal awaiting approvals whose
    requirements cannot be met (APPROVAL_UNREACHABLE, what it held released). Idempotent."""
    tx = await pipeline.lock_withdrawal(transaction_id)
    approval = await TransactionApproval.filter(transaction_id=transaction_id).select_for_update().first()
    if tx is None or approval is None or approval.status != PENDING or tx.status != statuses.AWAITING_APPROVALS:
        return False
    state = tally(approval, list(await TransactionApprovalVote.filter(approval_id=approval.id)))
    if state.unreachable is None:
        return False
    requirement = state.unreachable
    why = (f"the requirement {requirement['source']} needs {requirement['threshold']} approval(s) and "
           f"{len(requirement['approver_user_ids'])} approver(s) can give one"
           + ("; the initiator cannot approve their own withdrawal" if requirement.get("initiator_excluded") else ""))
    approval.status, approval.decided_at = DECLINED, clock.now()
    await approval.save()
    await audit.record(action="transaction.approvals_declined", object_type="transaction", object_id=tx.id,
                       actor_id=None, workspace_id=tx.workspace_id,
                       details={"reason": why, "requirements": state.requirements})
    parties = await ledger.load(tx, lock=True)
    await ledger.release(parties)
    tx.error_code, tx.error_message = "APPROVAL_UNREACHABLE", why
    await ledger.write_change(parties, status=statuses.DECLINED, actor_id=None, details={"reason": why})
    return True


async def due_for_expiry(*, limit: int = 500) -> list[uuid.UUID]:
    return list(await TransactionApproval.filter(status=PENDING, expires_at__lte=clock.now()).order_by(  # type: ignore[arg-type]  # flat values_list
        "expires_at").limit(limit).values_list("transaction_id", flat=True))


async def expire(*, transaction_id: uuid.UUID) -> bool:
    """End a withdrawal whose approvals did not complete in time: expired, APPROVAL_EXPIRED."""
    tx = await pipeline.lock_withdrawal(transaction_id)
    approval = await TransactionApproval.filter(transaction_id=transaction_id).select_for_update().first()
    if tx is None or approval is None or approval.status != PENDING or approval.expires_at > clock.now() \
            or tx.status != statuses.AWAITING_APPROVALS:
        return False
    approval.status, approval.decided_at = EXPIRED, clock.now()
    await approval.save()
    await audit.record(action="transaction.approvals_expired", object_type="transaction", object_id=tx.id,
                       actor_id=None, workspace_id=tx.workspace_id,
                       details={"expires_at": approval.expires_at.isoformat()})
    parties = await ledger.load(tx, lock=True)
    await ledger.release(parties)
    tx.error_code, tx.error_message = "APPROVAL_EXPIRED", "the approvals did not complete before they expired"
    await ledger.write_change(parties, status=statuses.EXPIRED, actor_id=None,
                              details={"reason": "approvals expired"})
    return True


@dataclass
class Card:
    transaction: Transaction
    approval: TransactionApproval
    votes: list[TransactionApprovalVote]
    state: Tally


async def card(*, principal: Principal, workspace_id: uuid.UUID, transaction_id: uuid.UUID) -> Card:
    principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    tx, approval = await _approval_of(workspace_id, transaction_id, lock=False)
    votes = list(await TransactionApprovalVote.filter(approval_id=approval.id).order_by("created_at"))
    return Card(tx, approval, votes, tally(approval, votes))


async def list_for_me(*, principal: Principal, workspace_id: uuid.UUID, scope: str, limit: int,
                      offset: int) -> tuple[list[Card], int]:
    """``PENDING_MY_VOTE``: pending requests naming the caller without their vote; ``ALL``: every
    request of the workspace (APPROVE_TRANSACTION), newest first."""
    principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    query = TransactionApproval.filter(workspace_id=workspace_id)
    if scope == "PENDING_MY_VOTE":
        voted = TransactionApprovalVote.filter(user_id=principal.user.id).values_list("approval_id", flat=True)
        query = query.filter(status=PENDING, approver_ids__contains=[str(principal.user.id)]).exclude(
            id__in=await voted)
    else:
        principal.require(workspace_id, Permission.APPROVE_TRANSACTION)
    total = await query.count()
    rows = list(await query.order_by("-created_at").offset(offset).limit(limit))
    txs = {t.id: t for t in await Transaction.filter(id__in=[r.transaction_id for r in rows])}
    votes: dict[uuid.UUID, list[TransactionApprovalVote]] = {}
    for v in await TransactionApprovalVote.filter(approval_id__in=[r.id for r in rows]).order_by("created_at"):
        votes.setdefault(v.approval_id, []).append(v)
    return [Card(txs[r.transaction_id], r, votes.get(r.id, []), tally(r, votes.get(r.id, [])))
            for r in rows], total


def install() -> None:
    ledger.add_transition_listener(on_transition)


install()
