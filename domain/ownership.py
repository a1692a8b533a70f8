"""Ownership of a workspace: one OWNER, who passes the role on only by an explicit transfer.

The workspace's OWNER alone holds MANAGE_BACKUP (exporting every key share), MANAGE_DEVICES,
MANAGE_SIGNING_POLICY and the approval settings, so the role is never *granted*: no user
creation, invitation or role change gives it (domain/users.py). It moves like this, each step
audited and announced to the workspace's administrators:

1. The owner starts a transfer to another active member (:func:`start_transfer`, TRANSFER_OWNERSHIP).
   **The owner is a person with a paired device**: the member must be a person (never an API
   user, whose key alone would then start backups) with an active device in the workspace, else
   409 OWNERSHIP_RECIPIENT_NOT_ELIGIBLE. At most one transfer is pending per workspace; it
   expires after ``OWNERSHIP_TRANSFER_TTL_SECONDS``.
2. The named member accepts it from that paired device (:func:`accept_transfer`; 403
   OWNERSHIP_ACCEPT_DEVICE_REQUIRED otherwise): they become OWNER and the previous owner becomes
   ADMIN, in one transaction (a partial unique index keeps one OWNER per workspace whatever runs
   concurrently). The member may decline instead, and the owner may cancel while it is pending.

A workspace that has no owner yet gets its first one from the operator (``custody bootstrap``) or
from the owner invitation of a workspace created by platform staff (domain/users.py).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from core import clock
from core.clock import rfc3339
from core.settings import get_settings
from domain import audit, notifications
from domain.auth import Principal
from domain.errors import Conflict, NotFound, PermissionDenied
from domain.permissions import Permission, WorkspaceRole
from domain.webhooks import events
from domain.webhooks.catalogue import WORKSPACE_OWNER_CHANGED
from models.auth import Device
from models.users import User, WorkspaceMember
from models.workspaces import OwnershipTransfer

#: What the previous owner becomes when the transfer completes.
PREVIOUS_OWNER_ROLE = WorkspaceRole.ADMIN


def _not_found() -> NotFound:
    return NotFound("no pending ownership transfer", code="OWNERSHIP_TRANSFER_NOT_FOUND")


async def _expire(workspace_id: uuid.UUID) -> None:
    now = clock.now()
    expired = await OwnershipTransfer.filter(workspace_id=workspace_id, status="pending", expires_at__lte=now)
    for transfer in expired:
        transfer.status = "expired"
        transfer.decided_at = now
        await transfer.save(update_fields=["status", "decided_at"])
        await audit.record(action="ownership.transfer_expired", object_type="ownership_transfer",
                           object_id=transfer.id, actor_id=None, workspace_id=workspace_id)


async def _pending(workspace_id: uuid.UUID, *, lock: bool = False) -> OwnershipTransfer | None:
    await _expire(workspace_id)
    query = OwnershipTransfer.filter(workspace_id=workspace_id, status="pending")
    return await (query.select_for_update() if lock else query).first()


def _name(user: User) -> str:
    return user.email or user.api_user_name or str(user.id)


async def _require_person_with_device(workspace_id: uuid.UUID, user: User) -> None:
    """The owner is a person with an active paired device in the workspace (409 otherwise)."""
    if user.user_type != "user":
        reason = "an API user cannot own a workspace: the owner is a person with a paired device"
    elif not await Device.exists(workspace_id=workspace_id, user_id=user.id, status="active"):
        reason = "the member has no active paired device in this workspace"
    else:
        return
    raise Conflict(reason, code="OWNERSHIP_RECIPIENT_NOT_ELIGIBLE", details={"user_id": str(user.id), "reason": reason})


async def start_transfer(*, principal: Principal, workspace_id: uuid.UUID, new_owner_id: uuid.UUID) -> OwnershipTransfer:
    """The owner names the member who is to become owner; nothing changes until they accept."""
    principal.require(workspace_id, Permission.TRANSFER_OWNERSHIP)
    if new_owner_id == principal.user.id:
        raise Conflict("you already own this workspace", code="OWNERSHIP_TRANSFER_TO_SELF")
    target = await WorkspaceMember.filter(workspace_id=workspace_id, user_id=new_owner_id) \
        .prefetch_related("user").first()
    if target is None or target.user.status != "active":
        raise NotFound("user not found", code="USER_NOT_FOUND")
    await _require_person_with_device(workspace_id, target.user)
    if await _pending(workspace_id, lock=True) is not None:
        raise Conflict("an ownership transfer is already pending; cancel it first",
                       code="OWNERSHIP_TRANSFER_PENDING")
    ttl = get_settings().ownership_transfer_ttl_seconds
    transfer = await OwnershipTransfer.create(workspace_id=workspace_id, from_user=principal.user,
                                              to_user=target.user, expires_at=clock.now() + timedelta(seconds=ttl))
    await audit.record(action="ownership.transfer_started", object_type="ownership_transfer", object_id=transfer.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"to_user_id": str(new_owner_id), "expires_at": rfc3339(transfer.expires_at)})
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action="ownership.transfer_started",
        subject="Workspace ownership transfer started",
        body=(f"{_name(principal.user)} started transferring the ownership of this workspace to "
              f"{_name(target.user)}. It takes effect only when they accept, before "
              f"{rfc3339(transfer.expires_at)}.\n"),
        details={"transfer_id": str(transfer.id)})
    return transfer


async def current_transfer(*, principal: Principal, workspace_id: uuid.UUID) -> OwnershipTransfer:
    """The pending transfer: visible to its two parties and to members with VIEW_USERS."""
    access = principal.access_to(workspace_id)
    if access is None:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    transfer = await _pending(workspace_id)
    if transfer is None:
        raise _not_found()
    parties = {transfer.from_user_id, transfer.to_user_id}
    if principal.user.id not in parties:
        principal.require(workspace_id, Permission.VIEW_USERS)
    return transfer


async def _for_recipient(principal: Principal, workspace_id: uuid.UUID) -> OwnershipTransfer:
    if principal.access_to(workspace_id) is None:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    transfer = await _pending(workspace_id, lock=True)
    if transfer is None:
        raise _not_found()
    if transfer.to_user_id != principal.user.id:
        raise PermissionDenied("only the member named by the transfer can answer it",
                               code="NOT_TRANSFER_RECIPIENT")
    return transfer


async def accept_transfer(*, principal: Principal, workspace_id: uuid.UUID) -> OwnershipTransfer:
    """The named member accepts, from their paired device: they become OWNER, the previous owner ADMIN."""
    transfer = await _for_recipient(principal, workspace_id)
    if principal.device is None:
        raise PermissionDenied("accept the ownership from your paired device", code="OWNERSHIP_ACCEPT_DEVICE_REQUIRED")
    await _require_person_with_device(workspace_id, principal.user)
    owner = await WorkspaceMember.filter(workspace_id=workspace_id, role=WorkspaceRole.OWNER) \
        .select_for_update().first()
    recipient = await WorkspaceMember.filter(workspace_id=workspace_id, user_id=principal.user.id) \
        .select_for_update().first()
    if owner is None or owner.user_id != transfer.from_user_id or recipient is None:
        # The owner changed meanwhile (or the recipient left): the transfer no longer stands.
        transfer.status = "cancelled"
        transfer.decided_at = clock.now()
        await transfer.save(update_fields=["status", "decided_at"])
        raise Conflict("the ownership changed since the transfer started", code="OWNERSHIP_TRANSFER_STALE")
    previous_role = recipient.role
    # Demote first: the partial unique index allows one OWNER at any moment.
    owner.role = PREVIOUS_OWNER_ROLE
    await owner.save(update_fields=["role"])
    recipient.role = WorkspaceRole.OWNER
    await recipient.save(update_fields=["role"])
    transfer.status = "accepted"
    transfer.decided_at = clock.now()
    await transfer.save(update_fields=["status", "decided_at"])
    details = {"from_user_id": str(transfer.from_user_id), "to_user_id": str(transfer.to_user_id),
               "previous_owner_role": PREVIOUS_OWNER_ROLE.value, "new_owner_previous_role": previous_role}
    await audit.record(action="ownership.transferred", object_type="ownership_transfer", object_id=transfer.id,
                       actor_id=principal.user.id, workspace_id=workspace_id, details=details)
    await events.emit_event(workspace_id=workspace_id, event_type=WORKSPACE_OWNER_CHANGED,
                            data={"transfer_id": str(transfer.id), "owner_id": details["to_user_id"],
                                  "previous_owner_id": details["from_user_id"],
                                  "previous_owner_role": PREVIOUS_OWNER_ROLE.value,
                                  "changed_at": rfc3339(transfer.decided_at)})
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action="ownership.transferred", subject="Workspace ownership transferred",
        body=f"{_name(principal.user)} is now the owner of this workspace; the previous owner is now an ADMIN.\n",
        details=details)
    return transfer


async def decline_transfer(*, principal: Principal, workspace_id: uuid.UUID) -> OwnershipTransfer:
    transfer = await _for_recipient(principal, workspace_id)
    transfer.status = "declined"
    transfer.decided_at = clock.now()
    await transfer.save(update_fields=["status", "decided_at"])
    await audit.record(action="ownership.transfer_declined", object_type="ownership_transfer", object_id=transfer.id,
                       actor_id=principal.user.id, workspace_id=workspace_id)
    return transfer


async def cancel_transfer(*, principal: Principal, workspace_id: uuid.UUID) -> OwnershipTransfer:
    """The owner withdraws the pending transfer."""
    principal.require(workspace_id, Permission.TRANSFER_OWNERSHIP)
    transfer = await _pending(workspace_id, lock=True)
    if transfer is None:
        raise _not_found()
    transfer.status = "cancelled"
    transfer.decided_at = clock.now()
    await transfer.save(update_fields=["status", "decided_at"])
    await audit.record(action="ownership.transfer_cancelled", object_type="ownership_transfer",
                       object_id=transfer.id, actor_id=principal.user.id, workspace_id=workspace_id)
    return transfer
