"""A request's lifecycle after the gate: votes, cancel, apply, expiry; and the lists and cards.

State table (spec "Change approval request"; docs/change-approvals.md):

- PENDING --approve votes, every set at its threshold--> APPROVED: an outbox command
  ``change_approvals.apply`` re-validates and applies the change (:func:`apply_request`) ->
  EXECUTED, or FAILED with the reason on the card;
- PENDING --a reject vote after which a set can no longer reach its threshold--> REJECTED;
- PENDING --72 hours (the scheduler's ``change_approvals.expire``, the injectable clock)--> EXPIRED;
- PENDING --cancel by the initiator--> CANCELLED (open sets and unsubmitted votes CANCELLED,
  submitted votes kept); cancelling again answers the same card.

Votes come only from a paired device (a device token; authentication rule 7). An approver in
several sets (the owner of a group in group mode with owner confirmation) votes once for all of
them. The initiator may vote on their own request like any approver.

**Rights are checked when they are used** (the sets are fixed at creation, who may still use a
place in them is not):

- a vote counts only in the sets whose pool the voter still belongs to now (the owner set: the
  OWNER; the administrator set: ADMIN or NON_SIGNING_ADMIN; a group set: the group's active
  members), from an active device of theirs; a voter left in none gets 403
  CHANGE_VOTE_NOT_ALLOWED (``details.reason`` ``rights_lost``), whichever way they vote;
- a cancel needs the initiator's membership with an active role, and from a device an active
  device of theirs (403 CHANGE_REQUEST_CANCEL_NOT_ALLOWED otherwise);
- the recount after a vote counts as still open only the places of approvers who could still
  vote; the apply counts only the approvals of approvers who still belong to the set, from a
  device still active: a set below its threshold by then ends the request FAILED
  (APPROVER_RIGHTS_LOST).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from tortoise.queryset import QuerySet
from tortoise.transactions import in_transaction

from core import clock
from core.outbox import add_command
from domain import audit
from domain.auth import Access, Principal
from domain.change_approvals import notify, pools, registry
from domain.change_approvals.registry import (
    ALL,
    APPROVED,
    CANCELLED,
    EXECUTED,
    EXPIRED,
    FAILED,
    INITIATED_BY_ME,
    PENDING,
    PENDING_MY_VOTE,
    REJECTED,
    AlreadyFinalized,
    CancelNotAllowed,
    RequestNotFound,
    VoteConflict,
    VoteDeviceRequired,
    VoteNotAllowed,
)
from domain.errors import Conflict, DomainError, NotFound, PermissionDenied
from domain.permissions import Permission, uses_device
from models.auth import Device
from models.change_approvals import ApproverSet, ChangeRequest, SetApprover
from models.users import User, WorkspaceMember
from models.workspaces import Workspace

APPLY = "change_approvals.apply"
EXPIRE = "change_approvals.expire"


@dataclass(frozen=True)
class SetView:
    row: ApproverSet
    approvers: list[tuple[SetApprover, User]]


@dataclass(frozen=True)
class Card:
    """A request as its card shows it to one caller (``viewer``: the user, or the device's user)."""

    request: ChangeRequest
    workspace: Workspace
    initiator: User
    sets: list[SetView]
    viewer_id: uuid.UUID
    action_display_name: str


def _access(principal: Principal, workspace_id: uuid.UUID) -> Access:
    access = principal.access_to(workspace_id)
    if access is None:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    return access


def _sees_all(principal: Principal, access: Access) -> bool:
    """VIEW_CHANGE_APPROVALS, and not a device (a device sees its user's own requests only)."""
    return principal.device is None and Permission.VIEW_CHANGE_APPROVALS in access.permissions


async def _load(workspace_id: uuid.UUID, request_id: uuid.UUID, *, lock: bool = False) -> ChangeRequest:
    query = ChangeRequest.filter(id=request_id, workspace_id=workspace_id)
    request = await (query.select_for_update() if lock else query).first()
    if request is None:
        raise RequestNotFound("change approval request not found", details={"request_uuid": str(request_id)})
    return request


async def _participants(request_id: uuid.UUID) -> set[uuid.UUID]:
    return set(await SetApprover.filter(request_id=request_id).values_list("user_id", flat=True))  # type: ignore[arg-type]  # flat values_list


async def card(*, request: ChangeRequest, viewer_id: uuid.UUID) -> Card:
    sets = await ApproverSet.filter(request_id=request.id).order_by("position")
    approvers = await SetApprover.filter(request_id=request.id).order_by("id").prefetch_related("user")
    by_set: dict[uuid.UUID, list[tuple[SetApprover, User]]] = {}
    for approver in approvers:
        by_set.setdefault(approver.approver_set_id, []).append((approver, approver.user))
    entry = registry.get(request.action)
    return Card(request=request, workspace=await Workspace.get(id=request.workspace_id),
                initiator=await User.get(id=request.initiator_id), viewer_id=viewer_id,
                sets=[SetView(row=s, approvers=by_set.get(s.id, [])) for s in sets],
                action_display_name=entry.display_name if entry else request.action)


async def get_card(*, principal: Principal, workspace_id: uuid.UUID, request_id: uuid.UUID) -> Card:
    """A participant's or a VIEW_CHANGE_APPROVALS holder's card (from a device: participant only).
    Anyone else gets 404, as for a request that does not exist."""
    access = _access(principal, workspace_id)
    await expire_due(workspace_id=workspace_id)
    request = await _load(workspace_id, request_id)
    viewer = principal.user.id
    if not _sees_all(principal, access):
        if viewer != request.initiator_id and viewer not in await _participants(request.id):
            raise RequestNotFound("change approval request not found", details={"request_uuid": str(request_id)})
    return await card(request=request, viewer_id=viewer)


# --- lists ----------------------------------------------------------------------------------------


async def _query(*, principal: Principal, workspace_ids: list[uuid.UUID], scope: str) -> QuerySet[ChangeRequest]:
    me = principal.user.id
    query = ChangeRequest.filter(workspace_id__in=workspace_ids)
    if scope == PENDING_MY_VOTE:
        open_ids = await SetApprover.filter(user_id=me, status=PENDING, request__status=PENDING,
                                            request__workspace_id__in=workspace_ids) \
            .values_list("request_id", flat=True)
        query = query.filter(id__in=list(set(open_ids)), status=PENDING)
    elif scope == INITIATED_BY_ME:
        query = query.filter(initiator_id=me)
    return query


async def list_requests(*, principal: Principal, workspace_id: uuid.UUID | None, scope: str, limit: int,
                        offset: int) -> tuple[list[tuple[ChangeRequest, Workspace]], int]:
    """One workspace's requests (``workspace_id``) or those of every workspace of the token, newest
    first. Scope ALL needs VIEW_CHANGE_APPROVALS (across workspaces: only where the caller has it,
    403 when nowhere); a device sees PENDING_MY_VOTE and INITIATED_BY_ME of its user only."""
    if workspace_id is not None:
        accesses = [_access(principal, workspace_id)]
    else:
        accesses = [a for a in principal.accesses.values() if a.role_status == "ROLE_STATUS_ACTIVE"]
    if scope == ALL:
        if principal.device is not None:
            raise PermissionDenied("a device sees only PENDING_MY_VOTE and INITIATED_BY_ME", code="PERMISSION_DENIED",
                                   details={"scope": scope})
        allowed = [a for a in accesses if _sees_all(principal, a)]
        if not allowed:
            raise PermissionDenied("scope ALL needs VIEW_CHANGE_APPROVALS", code="PERMISSION_DENIED",
                                   details={"permission": Permission.VIEW_CHANGE_APPROVALS.value})
        accesses = allowed
    workspace_ids = [a.workspace_id for a in accesses]
    for ws_id in workspace_ids:
        await expire_due(workspace_id=ws_id)
    query = await _query(principal=principal, workspace_ids=workspace_ids, scope=scope)
    total = await query.count()
    rows = await query.order_by("-created_at", "-id").offset(offset).limit(limit)
    workspaces = {w.id: w for w in await Workspace.filter(id__in=list({r.workspace_id for r in rows}))}
    return [(r, workspaces[r.workspace_id]) for r in rows], total


# --- votes ----------------------------------------------------------------------------------------


async def _close_open(request: ChangeRequest, status: str) -> None:
    """Open sets and unsubmitted votes take ``status``; submitted votes stay."""
    await ApproverSet.filter(request_id=request.id, status=PENDING).update(status=status)
    await SetApprover.filter(request_id=request.id, status=PENDING).update(status=status)


async def _finish(request: ChangeRequest, status: str, *, actor_id: uuid.UUID | None, **details: Any) -> None:
    request.status = status
    request.decided_at = clock.now()
    await request.save(update_fields=["status", "decided_at"])
    await audit.record(action=f"change_approval.{status.lower()}", object_type="change_request",
                       object_id=request.id, actor_id=actor_id, actor_type="user" if actor_id else "system",
                       workspace_id=request.workspace_id,
                       details={"action": request.action, "operation": request.operation, **details})
    everyone = {request.initiator_id, *await _participants(request.id)}
    await notify.publish(request, f"change_approval.{status.lower()}", recipients=everyone, push_to=everyone,
                         **details)


async def _pool(workspace_id: uuid.UUID, approver_set: ApproverSet) -> set[uuid.UUID]:
    """Who may use a place in ``approver_set`` now: its kind's pool, as pools.py composes it."""
    if approver_set.kind == "owner":
        return set(await pools.owner_approvers(workspace_id))
    if approver_set.kind == "admin_quorum":
        return set(await pools.admin_approvers(workspace_id))
    group_id = approver_set.external_id.partition(":")[2]
    try:
        members = await pools.group_active_members(workspace_id=workspace_id, group_id=uuid.UUID(group_id))
    except ValueError:
        members = None
    return set(members or [])


async def _active_devices(workspace_id: uuid.UUID, device_ids: set[uuid.UUID]) -> set[uuid.UUID]:
    if not device_ids:
        return set()
    return set(await Device.filter(id__in=list(device_ids), workspace_id=workspace_id, status="active")  # type: ignore[arg-type]  # flat values_list
               .values_list("id", flat=True))


async def vote(*, principal: Principal, workspace_id: uuid.UUID, request_id: uuid.UUID, approve: bool) -> Card:
    """An approver's vote from the paired device, counted in the sets whose pool they still belong
    to. The same vote again changes nothing; the opposite one is 409 CHANGE_VOTE_CONFLICT."""
    _access(principal, workspace_id)
    await expire_due(workspace_id=workspace_id)
    request = await _load(workspace_id, request_id, lock=True)
    if principal.device is None:
        raise VoteDeviceRequired("votes are accepted only from the paired device in the mobile app")
    me = principal.user.id
    mine = await SetApprover.filter(request_id=request.id, user_id=me).select_for_update()
    if not mine:
        raise VoteNotAllowed("you are not among the approvers of this request")
    if request.status != PENDING:
        raise AlreadyFinalized(f"the request is {request.status}", details={"status": request.status})
    wanted = APPROVED if approve else REJECTED
    if any(row.status in (APPROVED, REJECTED) and row.status != wanted for row in mine):
        raise VoteConflict("you already cast the opposite vote", details={"vote": next(
            r.status for r in mine if r.status in (APPROVED, REJECTED))})
    # The voter's rights now: their role and membership (each set's pool), and their device.
    sets = {s.id: s for s in await ApproverSet.filter(request_id=request.id)}
    still = [row for row in mine
             if me in await _pool(workspace_id, sets[row.approver_set_id])]
    if not still or not await _active_devices(workspace_id, {principal.device.id}):
        raise VoteNotAllowed("your role, membership or device no longer lets you confirm this request",
                             details={"reason": "rights_lost"})
    open_rows = [row for row in still if row.status == PENDING]
    if not open_rows:
        return await card(request=request, viewer_id=me)  # the same vote again: nothing changes
    now = clock.now()
    for row in open_rows:
        row.status, row.voted_at, row.device_id = wanted, now, principal.device.id
        await row.save(update_fields=["status", "voted_at", "device_id"])
    await audit.record(action="change_approval.vote_" + ("approved" if approve else "rejected"),
                       object_type="change_request", object_id=request.id, actor_id=me, workspace_id=workspace_id,
                       details={"device_id": str(principal.device.id), "action": request.action})
    everyone = {request.initiator_id, *await _participants(request.id)}
    await notify.publish(request, "change_approval.voted", recipients=everyone, voter_uuid=str(me), vote=wanted)
    await _settle(request, actor_id=me)
    return await card(request=request, viewer_id=me)


async def _settle(request: ChangeRequest, *, actor_id: uuid.UUID | None) -> None:
    """Recount every open set; decide the request when a set is lost or every set is won. A
    place counts as open only while its approver still belongs to the set's pool."""
    sets = await ApproverSet.filter(request_id=request.id).order_by("position")
    rejected = False
    for s in sets:
        if s.status != PENDING:
            rejected = rejected or s.status == REJECTED
            continue
        pool = await _pool(request.workspace_id, s)
        rows = await SetApprover.filter(approver_set_id=s.id).values_list("status", "user_id")
        yes = sum(1 for status, _ in rows if status == APPROVED)
        open_ = sum(1 for status, user_id in rows if status == PENDING and user_id in pool)
        if yes >= s.threshold:
            s.status = APPROVED
        elif yes + open_ < s.threshold:
            s.status = REJECTED
            rejected = True
        else:
            continue
        await s.save(update_fields=["status"])
    if rejected:
        await _close_open(request, CANCELLED)
        await _finish(request, REJECTED, actor_id=actor_id)
    elif all(s.status == APPROVED for s in sets):
        await _close_open(request, CANCELLED)
        await _finish(request, APPROVED, actor_id=actor_id)
        await add_command(actor_name=APPLY, payload={"request_id": str(request.id)},
                          workspace_id=request.workspace_id)


async def cancel(*, principal: Principal, workspace_id: uuid.UUID, request_id: uuid.UUID) -> Card:
    """The initiator withdraws a pending request; a cancelled one answers its card again."""
    access = _access(principal, workspace_id)
    await expire_due(workspace_id=workspace_id)
    request = await _load(workspace_id, request_id, lock=True)
    me = principal.user.id
    if request.initiator_id != me:
        raise CancelNotAllowed("only the initiator can cancel the request")
    # The initiator's rights now: an active role in the workspace, and from a device an active one.
    member = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=me)
    if member is None or member.role_status != "ROLE_STATUS_ACTIVE" or access.role_status != "ROLE_STATUS_ACTIVE":
        raise CancelNotAllowed("your role in this workspace is not active", details={"reason": "rights_lost"})
    if principal.device is not None and (not uses_device(member.role)
                                         or not await _active_devices(workspace_id, {principal.device.id})):
        raise CancelNotAllowed("this device no longer acts for you here", details={"reason": "rights_lost"})
    if request.status == CANCELLED:
        return await card(request=request, viewer_id=me)
    if request.status != PENDING:
        raise AlreadyFinalized(f"the request is {request.status}", details={"status": request.status})
    await _close_open(request, CANCELLED)
    await _finish(request, CANCELLED, actor_id=me, reason="cancelled by the initiator")
    return await card(request=request, viewer_id=me)


async def cancel_pending(*, workspace_id: uuid.UUID, action: str, reason: str,
                         actor_id: uuid.UUID | None) -> int:
    """Cancel every pending request of ``action`` (settings requests when Manage approvals goes off)."""
    count = 0
    for request in await ChangeRequest.filter(workspace_id=workspace_id, action=action, status=PENDING) \
            .select_for_update():
        await _close_open(request, CANCELLED)
        await _finish(request, CANCELLED, actor_id=actor_id, reason=reason)
        count += 1
    return count


# --- expiry ----------------------------------------------------------------------------------------


async def expire_due(*, workspace_id: uuid.UUID | None = None) -> int:
    """Expire pending requests past their 72 hours (the scheduler's sweep; reads call it too, so a
    card never shows PENDING past expires_at)."""
    query = ChangeRequest.filter(status=PENDING, expires_at__lte=clock.now())
    if workspace_id is not None:
        query = query.filter(workspace_id=workspace_id)
    count = 0
    for request in await query.select_for_update(skip_locked=True):
        await _close_open(request, EXPIRED)
        await _finish(request, EXPIRED, actor_id=None)
        count += 1
    return count


# --- apply -----------------------------------------------------------------------------------------


async def initiator_principal(request: ChangeRequest) -> Principal | None:
    """The initiator as a principal with their accesses now (None: no longer an active member)."""
    user = await User.get(id=request.initiator_id)
    if user.status != "active":
        return None
    member = await WorkspaceMember.get_or_none(workspace_id=request.workspace_id, user_id=user.id)
    if member is None:
        return None
    access = Access(workspace_id=member.workspace_id, role=member.role, role_status=member.role_status)
    return Principal(user=user, token=None, device=None, accesses={access.workspace_id: access})  # type: ignore[arg-type]  # a principal without a token


async def apply_request(*, request_id: uuid.UUID | str) -> str | None:
    """The apply actor's work: re-validate and apply an APPROVED request, once.

    Users, groups and approval settings are applied with the initiator's rights of now (a lost
    right fails the request); the other actions are applied whatever the initiator's rights.
    Any domain error fails the request with its code and message on the card; what the failed
    attempt wrote is rolled back (a savepoint). Returns the final status (None: nothing to do).
    """
    request = await ChangeRequest.filter(id=request_id).select_for_update().first()
    if request is None or request.status != APPROVED:
        return None
    entry = registry.get(request.action)
    token = registry.applying.set(True)
    try:
        async with in_transaction():
            if entry is None or entry.apply is None:
                raise DomainError("this action cannot be applied by this version of the service",
                                  code="CHANGE_APPROVAL_ACTION_UNAVAILABLE")
            principal = None
            if entry.recheck_initiator:
                principal = await initiator_principal(request)
                if principal is None:
                    raise PermissionDenied("the initiator is no longer an active member of the workspace",
                                           code="INITIATOR_RIGHTS_LOST")
            await _check_approvals_still_hold(request)
            kwargs = {"workspace_id": request.workspace_id, "payload": request.payload,
                      "principal": principal}
            if entry.validate is not None:
                await entry.validate(**kwargs)
            await entry.apply(**kwargs)
    except DomainError as exc:
        request.status, request.failure_code, request.failure_reason = FAILED, exc.code, exc.message
        request.executed_at = clock.now()
        await request.save(update_fields=["status", "failure_code", "failure_reason", "executed_at"])
        await _finish_applied(request, failure_code=exc.code, failure_reason=exc.message)
        return FAILED
    finally:
        registry.applying.reset(token)
    request.status, request.executed_at = EXECUTED, clock.now()
    await request.save(update_fields=["status", "executed_at"])
    await _finish_applied(request)
    return EXECUTED


async def _check_approvals_still_hold(request: ChangeRequest) -> None:
    """Each set still reaches its threshold counting only the approvals of approvers who belong to
    its pool now, cast from a device still active; else 409 APPROVER_RIGHTS_LOST (FAILED)."""
    workspace_id: uuid.UUID = request.workspace_id
    for approver_set in await ApproverSet.filter(request_id=request.id).order_by("position"):
        approvals = await SetApprover.filter(approver_set_id=approver_set.id, status=APPROVED) \
            .values_list("user_id", "device_id")
        pool = await _pool(workspace_id, approver_set)
        devices = await _active_devices(workspace_id, {d for _, d in approvals if d is not None})
        counted = sum(1 for user_id, device_id in approvals if user_id in pool and device_id in devices)
        if counted < approver_set.threshold:
            raise Conflict(f"the set {approver_set.external_id} has {counted} approval(s) from approvers who still "
                           f"hold their rights, fewer than its threshold {approver_set.threshold}",
                           code="APPROVER_RIGHTS_LOST",
                           details={"set": approver_set.external_id, "counted": counted,
                                    "threshold": approver_set.threshold})


async def _finish_applied(request: ChangeRequest, **details: Any) -> None:
    await audit.record(action=f"change_approval.{request.status.lower()}", object_type="change_request",
                       object_id=request.id, actor_id=None, actor_type="system",
                       workspace_id=request.workspace_id,
                       details={"action": request.action, "operation": request.operation, **details})
    everyone = {request.initiator_id, *await _participants(request.id)}
    await notify.publish(request, f"change_approval.{request.status.lower()}", recipients=everyone,
                         push_to=everyone, **details)
