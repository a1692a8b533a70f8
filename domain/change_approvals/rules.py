"""Approval settings: one rule per action (off by default) and the administrator threshold.

Rules (spec "Action rules" 1-6 and the Manage approvals table):

- the owner (MANAGE_QUORUM_SETTINGS) changes settings; while approval of Manage approvals is
  off the change applies at once, while it is on it becomes a request the owner confirms alone
  (Manage approvals has the fixed mode OWNER_ONLY);
- an administrator (PROPOSE_QUORUM_SETTINGS) may only propose, and only while Manage approvals
  is on: otherwise 403 QUORUM_CHANGE_REQUESTS_DISABLED;
- a rule whose sets cannot reach their thresholds cannot be switched on (409
  QUORUM_NO_ELIGIBLE_APPROVERS); the administrator threshold cannot exceed the number of
  administrators while a rule in ADMIN_QUORUM mode is on (same code);
- group mode needs approval of Manage groups on (409 QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED),
  except for the Manage groups rule itself; switching Manage groups off while a group-mode rule
  is on is 409 QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE with details.action_keys;
- switching Manage approvals off cancels its pending requests (settings changes).

Every check runs when the change is proposed and again when an approved change is applied.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Mapping

from domain import audit
from domain.auth import Principal
from domain.change_approvals import gate, pools, registry, requests
from domain.change_approvals.registry import (
    ADMIN_QUORUM,
    MANAGE_APPROVALS,
    MANAGE_GROUPS,
    MODES,
    OWNER_ONLY,
    SPECIFIC_GROUP,
    ChangeRequestsDisabled,
    GatedAction,
    GroupManagementApprovalDisabled,
    GroupManagementApprovalInUse,
    NoEligibleApprovers,
)
from domain.errors import NotFound, PermissionDenied, field_error
from domain.permissions import Permission
from models.change_approvals import ActionRule, QuorumSettings
from models.groups import Group, GroupMember
from models.users import User

MAX_THRESHOLD = 100


@dataclass(frozen=True)
class RuleView:
    action: GatedAction
    enabled: bool
    mode: str
    group_id: uuid.UUID | None
    group_name: str | None
    owner_confirmation: bool
    sets: list[pools.SetPlan]

    @property
    def reachable(self) -> bool:
        return pools.reachable(self.sets)


@dataclass(frozen=True)
class GroupView:
    group: Group
    member_ids: list[uuid.UUID]
    active_member_ids: list[uuid.UUID]


@dataclass(frozen=True)
class SettingsView:
    workspace_id: uuid.UUID
    admin_threshold: int
    owner_approvers: list[uuid.UUID]
    admin_quorum_approvers: list[uuid.UUID]
    rules: list[RuleView]
    groups: list[GroupView]
    users: dict[uuid.UUID, User]


def _action(key: str) -> GatedAction:
    entry = registry.get(key)
    if entry is None:
        raise NotFound(f"no gated action {key!r}", code="QUORUM_ACTION_NOT_FOUND", details={"action_key": key})
    return entry


async def _rule_values(workspace_id: uuid.UUID, entry: GatedAction) -> dict[str, Any]:
    rule = await pools.rule_of(workspace_id, entry.key)
    if rule is None:
        return {"enabled": False, "mode": entry.fixed_mode or OWNER_ONLY, "group_id": None,
                "owner_confirmation": False}
    return {"enabled": rule.enabled, "mode": entry.fixed_mode or rule.mode, "group_id": rule.group_id,
            "owner_confirmation": rule.owner_confirmation}


async def _rule_view(workspace_id: uuid.UUID, entry: GatedAction) -> RuleView:
    values = await _rule_values(workspace_id, entry)
    group = await Group.get_or_none(id=values["group_id"]) if values["group_id"] else None
    sets = await pools.compose(workspace_id=workspace_id, mode=values["mode"], group_id=values["group_id"],
                               owner_confirmation=values["owner_confirmation"])
    return RuleView(action=entry, enabled=values["enabled"], mode=values["mode"], group_id=values["group_id"],
                    group_name=group.name if group else None, owner_confirmation=values["owner_confirmation"],
                    sets=sets)


async def settings_view(*, principal: Principal | None, workspace_id: uuid.UUID) -> SettingsView:
    """GET .../quorum (VIEW_QUORUM_SETTINGS); None: the system (the answer of a rule change)."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_QUORUM_SETTINGS)
    rules = [await _rule_view(workspace_id, entry) for entry in registry.all_actions()]
    groups = []
    for group in await Group.filter(workspace_id=workspace_id, deleted_at__isnull=True).order_by("created_at", "id"):
        members = list(await GroupMember.filter(group_id=group.id).order_by("created_at", "id")
                       .values_list("user_id", flat=True))
        active = await pools.group_active_members(workspace_id=workspace_id, group_id=group.id) or []
        groups.append(GroupView(group=group, member_ids=members, active_member_ids=active))  # type: ignore[arg-type]  # flat values_list
    owners = await pools.owner_approvers(workspace_id)
    admins = await pools.admin_approvers(workspace_id)
    ids = set(owners) | set(admins) | {u for r in rules for s in r.sets for u in s.approvers}
    users = {u.id: u for u in await User.filter(id__in=list(ids))}
    return SettingsView(workspace_id=workspace_id, admin_threshold=await pools.admin_threshold(workspace_id),
                        owner_approvers=owners, admin_quorum_approvers=admins, rules=rules, groups=groups,
                        users=users)


async def list_actions(*, principal: Principal, workspace_id: uuid.UUID) -> list[GatedAction]:
    """GET .../quorum/actions (VIEW_QUORUM_SETTINGS)."""
    principal.require(workspace_id, Permission.VIEW_QUORUM_SETTINGS)
    return registry.all_actions()


async def gated_actions(*, principal: Principal, workspace_id: uuid.UUID) -> list[tuple[GatedAction, bool]]:
    """GET .../quorum/gated-actions: each action and whether it needs approval for this caller.
    Any active role; a device call is 403."""
    if principal.device is not None:
        raise PermissionDenied("gated-actions is not available to device calls", code="PERMISSION_DENIED")
    access = principal.access_to(workspace_id)
    if access is None:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    if access.role_status != "ROLE_STATUS_ACTIVE":
        raise PermissionDenied("your role in this workspace is not active", code="PERMISSION_DENIED")
    bypass = gate.bypasses(principal)
    answer = []
    for entry in registry.all_actions():
        rule = await pools.rule_of(workspace_id, entry.key)
        answer.append((entry, bool(rule is not None and rule.enabled and not bypass)))
    return answer


# --- changes ---------------------------------------------------------------------------------------


def _settings_access(principal: Principal, workspace_id: uuid.UUID) -> bool:
    """Whether the caller is the owner kind (MANAGE) rather than a proposer (PROPOSE); 403 for neither."""
    access = principal.access_to(workspace_id)
    if access is None:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    if Permission.MANAGE_QUORUM_SETTINGS in access.permissions:
        return True
    principal.require(workspace_id, Permission.PROPOSE_QUORUM_SETTINGS)
    return False


async def _refuse_admin_while_off(principal: Principal, workspace_id: uuid.UUID, manager: bool) -> None:
    if manager or gate.bypasses(principal):
        return
    rule = await pools.rule_of(workspace_id, MANAGE_APPROVALS)
    if rule is None or not rule.enabled:
        raise ChangeRequestsDisabled("approval of Manage approvals is off: only the owner changes approval "
                                     "settings")


async def check_action_setting(*, workspace_id: uuid.UUID, payload: Mapping[str, Any]) -> bool:
    """Validate a rule change; returns whether it changes nothing."""
    entry = _action(payload["action_key"])
    enabled, mode = bool(payload["enabled"]), payload.get("mode") or entry.fixed_mode or OWNER_ONLY
    group_id = uuid.UUID(payload["group_id"]) if payload.get("group_id") else None
    owner_confirmation = bool(payload.get("owner_confirmation"))
    if mode not in MODES:
        raise field_error("mode", f"must be one of {', '.join(MODES)}")
    if entry.fixed_mode and mode != entry.fixed_mode:
        raise field_error("mode", f"the action {entry.key} has the fixed mode {entry.fixed_mode}")
    if mode == SPECIFIC_GROUP:
        if group_id is None:
            raise field_error("group_uuid", "is required in group mode")
        if not await Group.exists(id=group_id, workspace_id=workspace_id, deleted_at__isnull=True):
            raise NotFound("group not found", code="GROUP_NOT_FOUND", details={"group_uuid": str(group_id)})
    elif group_id is not None:
        raise field_error("group_uuid", "is only given in group mode")
    if mode == OWNER_ONLY and owner_confirmation:
        raise field_error("owner_confirmation", "is implied in owner mode")
    current = await _rule_values(workspace_id, entry)
    if mode == SPECIFIC_GROUP and enabled and entry.key != MANAGE_GROUPS:
        groups_rule = await pools.rule_of(workspace_id, MANAGE_GROUPS)
        if groups_rule is None or not groups_rule.enabled:
            raise GroupManagementApprovalDisabled("group mode needs approval of Manage groups to be on")
    if entry.key == MANAGE_GROUPS and current["enabled"] and not enabled:
        in_use = [r.action for r in await ActionRule.filter(workspace_id=workspace_id, enabled=True,
                                                              mode=SPECIFIC_GROUP).exclude(action=MANAGE_GROUPS)]
        if in_use:
            raise GroupManagementApprovalInUse("rules in group mode are on: switch them off or move them first",
                                               details={"action_keys": sorted(in_use)})
    if enabled:
        sets = await pools.compose(workspace_id=workspace_id, mode=mode, group_id=group_id,
                                   owner_confirmation=owner_confirmation)
        if not pools.reachable(sets):
            raise NoEligibleApprovers(
                "the rule's approvers cannot reach its threshold", details={
                    "action_key": entry.key, "sets": [{"external_id": s.external_id, "threshold": s.threshold,
                                                       "approvers": len(s.approvers)} for s in sets]})
    wanted = {"enabled": enabled, "mode": mode, "group_id": group_id, "owner_confirmation": owner_confirmation}
    return wanted == current


async def apply_action_setting(*, workspace_id: uuid.UUID, payload: Mapping[str, Any],
                               actor_id: uuid.UUID | None) -> ActionRule:
    entry = _action(payload["action_key"])
    mode = payload.get("mode") or entry.fixed_mode or OWNER_ONLY
    group_id = uuid.UUID(payload["group_id"]) if payload.get("group_id") else None
    rule = await ActionRule.filter(workspace_id=workspace_id, action=entry.key).select_for_update().first()
    was_enabled = bool(rule and rule.enabled)
    if rule is None:
        rule = ActionRule(workspace_id=workspace_id, action=entry.key)
    rule.enabled, rule.mode, rule.group_id = bool(payload["enabled"]), mode, group_id
    rule.owner_confirmation = bool(payload.get("owner_confirmation"))
    await rule.save()
    await audit.record(action="quorum.action_setting_changed", object_type="quorum_rule", object_id=rule.id,
                       actor_id=actor_id, workspace_id=workspace_id,
                       details={"action": entry.key, "enabled": rule.enabled, "mode": mode,
                                "group_id": str(group_id) if group_id else None,
                                "owner_confirmation": rule.owner_confirmation})
    if entry.key == MANAGE_APPROVALS and was_enabled and not rule.enabled:
        await requests.cancel_pending(workspace_id=workspace_id, action=MANAGE_APPROVALS, actor_id=actor_id,
                                      reason="approval of Manage approvals was switched off")
    return rule


async def put_action(*, principal: Principal | None, workspace_id: uuid.UUID, action_key: str, enabled: bool,
                     mode: str | None, group_id: uuid.UUID | None, owner_confirmation: bool) -> RuleView:
    """PUT .../quorum/actions/{action_key}."""
    manager = True
    if principal is not None:
        manager = _settings_access(principal, workspace_id)
        await _refuse_admin_while_off(principal, workspace_id, manager)
    entry = _action(action_key)
    # An absent mode keeps the rule's mode (and its group): switching a group rule off is {"enabled": false}.
    current = await _rule_values(workspace_id, entry)
    mode = mode or current["mode"]
    if group_id is None and mode == SPECIFIC_GROUP and current["mode"] == SPECIFIC_GROUP:
        group_id = current["group_id"]
    payload = {"action_key": entry.key, "enabled": enabled, "mode": mode,
               "group_id": str(group_id) if group_id else None, "owner_confirmation": owner_confirmation}
    noop = await check_action_setting(workspace_id=workspace_id, payload=payload)
    await gate.gate(principal=principal, workspace_id=workspace_id, action=MANAGE_APPROVALS,
                    operation="action_setting", payload=payload, noop=noop)
    if not noop:
        await apply_action_setting(workspace_id=workspace_id, payload=payload,
                                   actor_id=registry.principal_user_id(principal))
    return await _rule_view(workspace_id, entry)


async def check_threshold(*, workspace_id: uuid.UUID, threshold: int) -> bool:
    if not 1 <= threshold <= MAX_THRESHOLD:
        raise field_error("threshold", f"must be 1 to {MAX_THRESHOLD}")
    quorum_rules = [r.action for r in await ActionRule.filter(workspace_id=workspace_id, enabled=True,
                                                                mode=ADMIN_QUORUM)]
    admins = len(await pools.admin_approvers(workspace_id))
    if quorum_rules and threshold > admins:
        raise NoEligibleApprovers(
            f"the administrator threshold cannot exceed the {admins} administrator(s) while a quorum rule is on",
            details={"threshold": threshold, "administrators": admins, "action_keys": sorted(quorum_rules)})
    return threshold == await pools.admin_threshold(workspace_id)


async def apply_threshold(*, workspace_id: uuid.UUID, threshold: int, actor_id: uuid.UUID | None) -> None:
    row = await QuorumSettings.filter(workspace_id=workspace_id).select_for_update().first()
    previous = row.admin_threshold if row else 1
    if row is None:
        row = QuorumSettings(workspace_id=workspace_id)
    row.admin_threshold = threshold
    await row.save()
    await audit.record(action="quorum.threshold_changed", object_type="quorum_settings", object_id=row.id,
                       actor_id=actor_id, workspace_id=workspace_id, details={"from": previous, "to": threshold})


async def put_threshold(*, principal: Principal | None, workspace_id: uuid.UUID, threshold: int) -> int:
    """PUT .../quorum/threshold: the administrator threshold; answers the threshold in force."""
    manager = True
    if principal is not None:
        manager = _settings_access(principal, workspace_id)
        await _refuse_admin_while_off(principal, workspace_id, manager)
    noop = await check_threshold(workspace_id=workspace_id, threshold=threshold)
    await gate.gate(principal=principal, workspace_id=workspace_id, action=MANAGE_APPROVALS, operation="threshold",
                    payload={"threshold": threshold}, noop=noop)
    if not noop:
        await apply_threshold(workspace_id=workspace_id, threshold=threshold,
                              actor_id=registry.principal_user_id(principal))
    return await pools.admin_threshold(workspace_id)


# --- the Manage approvals action (fixed mode: the owner confirms) ---------------------------------


async def _approval_display(*, workspace_id: uuid.UUID, payload: Mapping[str, Any]) -> dict[str, Any] | None:
    if payload.get("operation") != "action_setting":
        return None
    entry = registry.get(payload["action_key"])
    group = await Group.get_or_none(id=payload["group_id"]) if payload.get("group_id") else None
    return {"action_display_name": entry.display_name if entry else payload["action_key"],
            "group_name": group.name if group else None}


async def _validate_approved(*, workspace_id: uuid.UUID, payload: Mapping[str, Any],
                             principal: Principal | None) -> None:
    """Every check again, with the initiator's rights of now."""
    if principal is not None:
        _settings_access(principal, workspace_id)
    if payload.get("operation") == "threshold":
        await check_threshold(workspace_id=workspace_id, threshold=payload["threshold"])
    else:
        await check_action_setting(workspace_id=workspace_id, payload=payload)


async def _apply_approved(*, workspace_id: uuid.UUID, payload: Mapping[str, Any],
                          principal: Principal | None) -> None:
    actor = registry.principal_user_id(principal)
    if payload.get("operation") == "threshold":
        await apply_threshold(workspace_id=workspace_id, threshold=payload["threshold"], actor_id=actor)
    else:
        await apply_action_setting(workspace_id=workspace_id, payload=payload, actor_id=actor)


registry.register(GatedAction(key=MANAGE_APPROVALS, display_name="Manage approvals",
                              operations=("threshold", "action_setting"), display=_approval_display,
                              validate=_validate_approved, apply=_apply_approved, recheck_initiator=True,
                              fixed_mode=OWNER_ONLY))
