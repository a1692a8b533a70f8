"""Groups of workspace members: the approver pools of the change approvals' group mode.

Changes need MANAGE_USERS and are the gated action Manage groups (operations create, update,
delete, add_members, remove_members); reads need VIEW_USERS. Members must be members of the
workspace. A group in use by an enabled rule cannot be deleted (409 GROUP_IN_USE). Adding a member
already there or removing one who is not is a no-op on a direct call; when an approved request is
applied it fails instead (the state table's "user already in the group"), because the approvers
confirmed a change that no longer changes what they saw.

:func:`active_member_ids` is what the transaction-approval policies resolve group approver sets
with: the members counted in group mode (eligible people whose role can use the mobile app).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from core import clock
from domain import audit
from domain.auth import Principal
from domain.change_approvals import pools, registry
from domain.change_approvals.gate import gate
from domain.change_approvals.registry import MANAGE_GROUPS
from domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed, field_error
from domain.permissions import Permission
from models.change_approvals import ActionRule
from models.groups import Group, GroupMember
from models.users import User, WorkspaceMember

MAX_MEMBERS = 100
#: How many members a group change's display names (the payload keeps them all).
DISPLAY_USERS = 10


@dataclass(frozen=True)
class GroupRecord:
    group: Group
    member_ids: list[uuid.UUID]
    active_member_ids: list[uuid.UUID]


async def active_member_ids(*, workspace_id: uuid.UUID, group_id: uuid.UUID) -> list[uuid.UUID] | None:
    """The members counted in group mode (None when the workspace has no such live group)."""
    return await pools.group_active_members(workspace_id=workspace_id, group_id=group_id)


async def record(group: Group) -> GroupRecord:
    members = list(await GroupMember.filter(group_id=group.id).order_by("created_at", "id")
                   .values_list("user_id", flat=True))
    active = await pools.group_active_members(workspace_id=group.workspace_id, group_id=group.id)
    return GroupRecord(group=group, member_ids=members, active_member_ids=active or [])  # type: ignore[arg-type]  # flat values_list


def _actor(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal else None


def _require(principal: Principal | None, workspace_id: uuid.UUID, permission: Permission) -> None:
    if principal is not None:
        principal.require(workspace_id, permission)


def _clean_name(name: str) -> str:
    cleaned = name.strip() if isinstance(name, str) else ""
    if not 1 <= len(cleaned) <= 100:
        raise field_error("name", "must be 1 to 100 characters")
    return cleaned


def _check_threshold(threshold: int) -> None:
    if not 1 <= threshold <= MAX_MEMBERS:
        raise field_error("threshold", f"must be 1 to {MAX_MEMBERS}")


async def _load(workspace_id: uuid.UUID, group_id: uuid.UUID, *, lock: bool = False) -> Group:
    query = Group.filter(id=group_id, workspace_id=workspace_id, deleted_at__isnull=True)
    group = await (query.select_for_update() if lock else query).first()
    if group is None:
        raise NotFound("group not found", code="GROUP_NOT_FOUND", details={"group_uuid": str(group_id)})
    return group


async def _check_members(workspace_id: uuid.UUID, user_ids: list[uuid.UUID]) -> list[uuid.UUID]:
    ids = list(dict.fromkeys(user_ids))
    if len(ids) > MAX_MEMBERS:
        raise field_error("user_uuids", f"must name at most {MAX_MEMBERS} users")
    known = set(await WorkspaceMember.filter(workspace_id=workspace_id, user_id__in=ids)
                .values_list("user_id", flat=True))
    missing = [str(i) for i in ids if i not in known]
    if missing:
        raise NotFound("user not found", code="USER_NOT_FOUND", details={"user_uuids": missing})
    return ids


async def _name_free(workspace_id: uuid.UUID, name: str, *, other_than: uuid.UUID | None = None) -> None:
    query = Group.filter(workspace_id=workspace_id, name__iexact=name, deleted_at__isnull=True)
    if other_than is not None:
        query = query.exclude(id=other_than)
    if await query.exists():
        raise Conflict(f"the workspace already has a group named {name!r}", code="GROUP_ALREADY_EXISTS",
                       details={"field": "name"})


async def get_group(*, principal: Principal | None, workspace_id: uuid.UUID, group_id: uuid.UUID) -> GroupRecord:
    _require(principal, workspace_id, Permission.VIEW_USERS)
    return await record(await _load(workspace_id, group_id))


async def list_groups(*, principal: Principal | None, workspace_id: uuid.UUID) -> list[GroupRecord]:
    _require(principal, workspace_id, Permission.VIEW_USERS)
    return [await record(g) for g in await Group.filter(workspace_id=workspace_id, deleted_at__isnull=True)
            .order_by("created_at", "id")]


async def create_group(*, principal: Principal | None, workspace_id: uuid.UUID, name: str, threshold: int = 1,
                       member_ids: list[uuid.UUID] | None = None) -> GroupRecord:
    _require(principal, workspace_id, Permission.MANAGE_USERS)
    name = _clean_name(name)
    _check_threshold(threshold)
    members = await _check_members(workspace_id, member_ids or [])
    await _name_free(workspace_id, name)
    await gate(principal=principal, workspace_id=workspace_id, action=MANAGE_GROUPS, operation="create",
               payload={"name": name, "threshold": threshold, "user_uuids": [str(m) for m in members]})
    group = await Group.create(workspace_id=workspace_id, name=name, threshold=threshold)
    await GroupMember.bulk_create([GroupMember(group_id=group.id, user_id=m) for m in members])
    await audit.record(action="group.created", object_type="group", object_id=group.id, actor_id=_actor(principal),
                       workspace_id=workspace_id, details={"name": name, "threshold": threshold,
                                                           "user_uuids": [str(m) for m in members]})
    return await record(group)


async def update_group(*, principal: Principal | None, workspace_id: uuid.UUID, group_id: uuid.UUID,
                       name: str | None = None, threshold: int | None = None) -> GroupRecord:
    """Rename a group or change its threshold (operation ``update``)."""
    _require(principal, workspace_id, Permission.MANAGE_USERS)
    group = await _load(workspace_id, group_id, lock=True)
    changes: dict[str, object] = {}
    if name is not None:
        name = _clean_name(name)
        if name != group.name:
            await _name_free(workspace_id, name, other_than=group.id)
            changes["name"] = name
    if threshold is not None:
        _check_threshold(threshold)
        if threshold != group.threshold:
            changes["threshold"] = threshold
    if not changes and registry.applying.get():
        raise Conflict("the group already has these values", code="GROUP_UNCHANGED")
    await gate(principal=principal, workspace_id=workspace_id, action=MANAGE_GROUPS, operation="update",
               payload={"group_uuid": str(group_id), "name": name, "threshold": threshold}, noop=not changes)
    if changes:
        previous = {key: getattr(group, key) for key in changes}
        for key, value in changes.items():
            setattr(group, key, value)
        await group.save(update_fields=list(changes))
        await audit.record(action="group.updated", object_type="group", object_id=group.id,
                           actor_id=_actor(principal), workspace_id=workspace_id,
                           details={"from": previous, "to": changes})
    return await record(group)


async def delete_group(*, principal: Principal | None, workspace_id: uuid.UUID, group_id: uuid.UUID) -> None:
    _require(principal, workspace_id, Permission.MANAGE_USERS)
    group = await _load(workspace_id, group_id, lock=True)
    in_use = [r.action for r in await ActionRule.filter(workspace_id=workspace_id, group_id=group.id, enabled=True)]
    if in_use:
        raise Conflict("an enabled approval rule uses this group", code="GROUP_IN_USE",
                       details={"action_keys": sorted(in_use)})
    await gate(principal=principal, workspace_id=workspace_id, action=MANAGE_GROUPS, operation="delete",
               payload={"group_uuid": str(group_id)})
    group.deleted_at = clock.now()
    await group.save(update_fields=["deleted_at"])
    await audit.record(action="group.deleted", object_type="group", object_id=group.id, actor_id=_actor(principal),
                       workspace_id=workspace_id, details={"name": group.name})


async def change_members(*, principal: Principal | None, workspace_id: uuid.UUID, group_id: uuid.UUID,
                         user_ids: list[uuid.UUID], add: bool) -> GroupRecord:
    """Add (operation ``add_members``) or remove (``remove_members``) members."""
    _require(principal, workspace_id, Permission.MANAGE_USERS)
    if not user_ids:
        raise field_error("user_uuids", "name at least one user")
    group = await _load(workspace_id, group_id, lock=True)
    ids = await _check_members(workspace_id, user_ids) if add else list(dict.fromkeys(user_ids))
    current = set(await GroupMember.filter(group_id=group.id).values_list("user_id", flat=True))
    effective = [u for u in ids if (u not in current) == add]
    if registry.applying.get() and len(effective) != len(ids):
        stale = [str(u) for u in ids if u not in effective]
        raise Conflict("a user is already in the group" if add else "a user is no longer in the group",
                       code="GROUP_MEMBER_EXISTS" if add else "GROUP_MEMBER_NOT_FOUND",
                       details={"user_uuids": stale})
    operation = "add_members" if add else "remove_members"
    await gate(principal=principal, workspace_id=workspace_id, action=MANAGE_GROUPS, operation=operation,
               payload={"group_uuid": str(group_id), "user_uuids": [str(u) for u in ids]}, noop=not effective)
    if effective:
        if add:
            await GroupMember.bulk_create([GroupMember(group_id=group.id, user_id=u) for u in effective])
        else:
            await GroupMember.filter(group_id=group.id, user_id__in=effective).delete()
        await audit.record(action=f"group.{operation}", object_type="group", object_id=group.id,
                           actor_id=_actor(principal), workspace_id=workspace_id,
                           details={"user_uuids": [str(u) for u in effective]})
    return await record(group)




# --- the Manage groups action of the change approvals ---------------------------------------------


async def _approval_display(*, workspace_id: uuid.UUID, payload: registry.Payload) -> dict[str, Any] | None:
    """The spec's display: the group's name, and the first members a membership change names."""
    operation = registry.operation_of(payload)
    if operation not in ("update", "delete", "add_members", "remove_members"):
        return None
    group = await Group.get_or_none(id=payload["group_uuid"], workspace_id=workspace_id)
    display: dict[str, Any] = {"group_name": group.name if group else None}
    if operation in ("add_members", "remove_members"):
        ids = payload["user_uuids"][:DISPLAY_USERS]
        found = {str(u.id): u for u in await User.filter(id__in=ids)}
        display["users"] = [registry.participant(found[i]) for i in ids if i in found]
    return display


async def _apply_approved(*, workspace_id: uuid.UUID, payload: registry.Payload,
                          principal: Principal | None) -> None:
    """Replay an approved change with the initiator's rights of now (``principal``)."""
    operation = registry.operation_of(payload)
    if principal is None:
        raise PermissionDenied("the initiator's rights are needed to apply this change", code="INITIATOR_RIGHTS_LOST")
    if operation == "create":
        await create_group(principal=principal, workspace_id=workspace_id, name=payload["name"],
                           threshold=payload["threshold"], member_ids=[uuid.UUID(u) for u in payload["user_uuids"]])
        return
    group_id = uuid.UUID(payload["group_uuid"])
    if operation == "update":
        await update_group(principal=principal, workspace_id=workspace_id, group_id=group_id,
                           name=payload.get("name"), threshold=payload.get("threshold"))
    elif operation == "delete":
        await delete_group(principal=principal, workspace_id=workspace_id, group_id=group_id)
    elif operation in ("add_members", "remove_members"):
        await change_members(principal=principal, workspace_id=workspace_id, group_id=group_id,
                             user_ids=[uuid.UUID(u) for u in payload["user_uuids"]], add=operation == "add_members")
    else:
        raise ValidationFailed(f"unknown operation {operation!r}")


registry.register(registry.GatedAction(
    key=MANAGE_GROUPS, display_name="Manage groups",
    operations=("create", "update", "delete", "add_members", "remove_members"),
    display=_approval_display, apply=_apply_approved, recheck_initiator=True))
