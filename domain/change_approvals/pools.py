"""Who may confirm: the pools of eligible approvers and the approver sets a rule composes.

Eligible means a person (``user_type`` user: API users have no mobile app), active, with an
active role in the workspace:

- owner pool: the OWNER;
- administrator pool: ADMIN and NON_SIGNING_ADMIN (the owner confirms through owner
  confirmation or owner mode, not as one of the quorum);
- a group's pool (its *active members*): members of the group who are eligible and whose role
  can use the mobile app (every role except VIEWER).

A rule's sets: OWNER_ONLY -> the owner set (threshold 1); ADMIN_QUORUM -> the administrator set
(the workspace's administrator threshold); SPECIFIC_GROUP -> the group set (the group's
threshold); plus the owner set when owner confirmation is on. A rule is *reachable* when every
set has at least as many approvers as its threshold.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from domain.change_approvals.registry import ADMIN_QUORUM, OWNER_ONLY, SPECIFIC_GROUP
from domain.permissions import WorkspaceRole
from models.change_approvals import ActionRule, QuorumSettings
from models.groups import Group, GroupMember
from models.users import WorkspaceMember

ADMIN_ROLES = (WorkspaceRole.ADMIN.value, WorkspaceRole.NON_SIGNING_ADMIN.value)
#: Roles that cannot use the mobile app, so cannot confirm in group mode.
NO_APP_ROLES = (WorkspaceRole.VIEWER.value,)


@dataclass
class SetPlan:
    """One approver set of a rule, as it would be composed now."""

    external_id: str
    kind: str
    threshold: int
    approvers: list[uuid.UUID] = field(default_factory=list)
    group_id: uuid.UUID | None = None
    group_name: str | None = None

    @property
    def reachable(self) -> bool:
        return self.threshold >= 1 and len(self.approvers) >= self.threshold


async def _eligible(workspace_id: uuid.UUID, **filters: object) -> list[WorkspaceMember]:
    return await WorkspaceMember.filter(workspace_id=workspace_id, role_status="ROLE_STATUS_ACTIVE",
                                        user__user_type="user", user__status="active", **filters) \
        .order_by("created_at", "id")


async def owner_approvers(workspace_id: uuid.UUID) -> list[uuid.UUID]:
    return [m.user_id for m in await _eligible(workspace_id, role=WorkspaceRole.OWNER.value)]


async def admin_approvers(workspace_id: uuid.UUID) -> list[uuid.UUID]:
    return [m.user_id for m in await _eligible(workspace_id, role__in=ADMIN_ROLES)]


async def group_active_members(*, workspace_id: uuid.UUID, group_id: uuid.UUID) -> list[uuid.UUID] | None:
    """The members counted in group mode, in the order they joined the group (None: no such group)."""
    group = await Group.get_or_none(id=group_id, workspace_id=workspace_id, deleted_at__isnull=True)
    if group is None:
        return None
    member_ids = await GroupMember.filter(group_id=group_id).order_by("created_at", "id") \
        .values_list("user_id", flat=True)
    eligible = {m.user_id for m in await _eligible(workspace_id, user_id__in=list(member_ids))
                if m.role not in NO_APP_ROLES}
    return [user_id for user_id in member_ids if user_id in eligible]  # type: ignore[misc]  # flat values_list


async def admin_threshold(workspace_id: uuid.UUID) -> int:
    row = await QuorumSettings.get_or_none(workspace_id=workspace_id)
    return row.admin_threshold if row is not None else 1


async def compose(*, workspace_id: uuid.UUID, mode: str, group_id: uuid.UUID | None,
                  owner_confirmation: bool, threshold: int | None = None) -> list[SetPlan]:
    """The approver sets of a rule with these values (saved or not). ``threshold`` overrides the
    administrator threshold (a threshold change being checked)."""
    sets: list[SetPlan] = []
    if mode == ADMIN_QUORUM:
        sets.append(SetPlan(external_id="admin_quorum", kind="admin_quorum",
                            threshold=threshold if threshold is not None else await admin_threshold(workspace_id),
                            approvers=await admin_approvers(workspace_id)))
    elif mode == SPECIFIC_GROUP:
        group = await Group.get_or_none(id=group_id, workspace_id=workspace_id, deleted_at__isnull=True) \
            if group_id is not None else None
        members = await group_active_members(workspace_id=workspace_id, group_id=group.id) if group else []
        sets.append(SetPlan(external_id=f"group:{group_id}", kind="group",
                            threshold=group.threshold if group else 1, approvers=members or [],
                            group_id=group_id, group_name=group.name if group else None))
    if mode == OWNER_ONLY or owner_confirmation:
        sets.append(SetPlan(external_id="owner", kind="owner", threshold=1,
                            approvers=await owner_approvers(workspace_id)))
    return sets


def reachable(sets: list[SetPlan]) -> bool:
    return bool(sets) and all(s.reachable for s in sets)


async def rule_of(workspace_id: uuid.UUID, action: str) -> ActionRule | None:
    return await ActionRule.get_or_none(workspace_id=workspace_id, action=action)


async def sets_of_rule(rule: ActionRule, *, fixed_mode: str | None = None) -> list[SetPlan]:
    return await compose(workspace_id=rule.workspace_id, mode=fixed_mode or rule.mode,
                         group_id=rule.group_id, owner_confirmation=rule.owner_confirmation)
