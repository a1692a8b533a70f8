"""Change approvals and approval settings (/api/v2/admin): cards, lists, settings, rules."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import Field

from api.schemas.common import QueryParams, RequestBody, Resource, Timestamp, page_query
from domain.change_approvals import registry
from domain.change_approvals.pools import SetPlan
from domain.change_approvals.requests import Card
from domain.change_approvals.rules import RuleView, SettingsView
from models.users import User

Scope = Literal[registry.PENDING_MY_VOTE, registry.INITIATED_BY_ME, registry.ALL]
Mode = Literal[registry.OWNER_ONLY, registry.ADMIN_QUORUM, registry.SPECIFIC_GROUP]
Status = Literal[tuple(registry.REQUEST_STATUSES)]


class ChangeApprovalListQuery(page_query(default=50, maximum=200, name="_ChangeApprovalPage")):  # type: ignore[misc]  # a page_query class
    scope: Scope = Field(registry.PENDING_MY_VOTE, description="PENDING_MY_VOTE (default), INITIATED_BY_ME or ALL "
                                                              "(VIEW_CHANGE_APPROVALS; not from a device).")


class Participant(Resource):
    user_uuid: uuid.UUID
    user_type: str
    email: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    api_user_name: str | None = None

    @classmethod
    def of(cls, user: User) -> "Participant":
        return cls(user_uuid=user.id, user_type=user.user_type, email=user.email, first_name=user.first_name,
                   last_name=user.last_name, api_user_name=user.api_user_name)


class SetApprover(Resource):
    user_uuid: uuid.UUID
    status: str
    is_me: bool
    user: Participant
    voted_at: Timestamp | None = None


class ApproverSet(Resource):
    external_id: str
    kind: str
    threshold: int
    status: str
    approvers: list[SetApprover]


class ChangeApprovalRequest(Resource):
    request_uuid: uuid.UUID
    tenant_uuid: uuid.UUID
    tenant_name: str
    action: str
    action_display_name: str
    operation: str | None
    mode: Mode
    initiator: Participant
    initiated_by_me: bool
    payload: dict[str, Any]
    display: dict[str, Any] | None = Field(None, description="Names captured at creation; absent without snapshot.")
    status: Status
    sets: list[ApproverSet]
    created_at: Timestamp
    expires_at: Timestamp
    decided_at: Timestamp | None = None
    executed_at: Timestamp | None = None
    failure_code: str | None = Field(None, description="FAILED: the code of the reason.")
    failure_reason: str | None = Field(None, description="FAILED: why the change could not be applied.")

    @classmethod
    def of(cls, card: Card) -> "ChangeApprovalRequest":
        r = card.request
        return cls(
            request_uuid=r.id, tenant_uuid=card.workspace.id, tenant_name=card.workspace.name, action=r.action,
            action_display_name=card.action_display_name, operation=r.operation, mode=r.mode,
            initiator=Participant.of(card.initiator), initiated_by_me=card.initiator.id == card.viewer_id,
            payload=r.payload, display=r.display, status=r.status, created_at=r.created_at, expires_at=r.expires_at,
            decided_at=r.decided_at, executed_at=r.executed_at, failure_code=r.failure_code,
            failure_reason=r.failure_reason,
            sets=[ApproverSet(external_id=s.row.external_id, kind=s.row.kind, threshold=s.row.threshold,
                              status=s.row.status,
                              approvers=[SetApprover(user_uuid=u.id, status=a.status, is_me=u.id == card.viewer_id,
                                                     user=Participant.of(u), voted_at=a.voted_at)
                                         for a, u in s.approvers])
                  for s in card.sets])

    def model_dump_json(self, **kwargs: Any) -> str:
        # "absent when no snapshot exists": the display key is left out rather than null.
        kwargs.setdefault("exclude", {"display"} if self.display is None else None)
        return super().model_dump_json(**kwargs)


class ChangeApprovalCard(Resource):
    request: ChangeApprovalRequest

    def model_dump_json(self, **kwargs: Any) -> str:
        if self.request.display is None:
            kwargs.setdefault("exclude", {"request": {"display"}})
        return super().model_dump_json(**kwargs)


class ChangeApprovalListItem(Resource):
    request_uuid: uuid.UUID
    tenant_uuid: uuid.UUID
    tenant_name: str
    action: str
    action_display_name: str
    operation: str | None
    status: Status
    initiated_by_me: bool
    created_at: Timestamp
    expires_at: Timestamp


class ChangeApprovalList(Resource):
    items: list[ChangeApprovalListItem]
    total: int
    limit: int
    offset: int


# --- settings --------------------------------------------------------------------------------------


class SettingsSet(Resource):
    external_id: str
    kind: str
    threshold: int
    reachable: bool
    approvers: list[Participant]


class QuorumRule(Resource):
    action: str
    action_display_name: str
    enabled: bool
    mode: Mode
    fixed_mode: Mode | None = None
    group_uuid: uuid.UUID | None = None
    group_name: str | None = None
    owner_confirmation: bool
    approver_sets: list[SettingsSet]
    reachable: bool

    @classmethod
    def of(cls, rule: RuleView, users: dict[uuid.UUID, User]) -> "QuorumRule":
        return cls(action=rule.action.key, action_display_name=rule.action.display_name, enabled=rule.enabled,
                   mode=rule.mode, fixed_mode=rule.action.fixed_mode, group_uuid=rule.group_id,
                   group_name=rule.group_name, owner_confirmation=rule.owner_confirmation,
                   approver_sets=[_set(s, users) for s in rule.sets], reachable=rule.reachable)


def _set(plan: SetPlan, users: dict[uuid.UUID, User]) -> SettingsSet:
    return SettingsSet(external_id=plan.external_id, kind=plan.kind, threshold=plan.threshold,
                       reachable=plan.reachable,
                       approvers=[Participant.of(users[u]) for u in plan.approvers if u in users])


class QuorumGroup(Resource):
    group_uuid: uuid.UUID
    name: str
    threshold: int
    member_uuids: list[uuid.UUID]
    active_member_uuids: list[uuid.UUID]


class QuorumSettings(Resource):
    tenant_uuid: uuid.UUID
    admin_threshold: int
    owner_approvers: list[Participant]
    admin_quorum_approvers: list[Participant]
    rules: list[QuorumRule]
    groups: list[QuorumGroup]

    @classmethod
    def of(cls, view: SettingsView) -> "QuorumSettings":
        users = view.users
        return cls(tenant_uuid=view.workspace_id, admin_threshold=view.admin_threshold,
                   owner_approvers=[Participant.of(users[u]) for u in view.owner_approvers],
                   admin_quorum_approvers=[Participant.of(users[u]) for u in view.admin_quorum_approvers],
                   rules=[QuorumRule.of(r, users) for r in view.rules],
                   groups=[QuorumGroup(group_uuid=g.group.id, name=g.group.name, threshold=g.group.threshold,
                                       member_uuids=g.member_ids, active_member_uuids=g.active_member_ids)
                           for g in view.groups])


class QuorumAction(Resource):
    key: str
    display_name: str
    operations: list[str]
    fixed_mode: Mode | None = None


class QuorumActionList(Resource):
    actions: list[QuorumAction]


class GatedAction(Resource):
    key: str
    display_name: str
    requires_approval: bool


class GatedActionList(Resource):
    actions: list[GatedAction]


class QuorumActionUpdate(RequestBody):
    """A rule: on or off, its mode, the group (group mode), owner confirmation on top."""

    enabled: bool
    mode: Mode | None = Field(None, description="Default: the action's fixed mode, else OWNER_ONLY.")
    group_uuid: uuid.UUID | None = Field(None, description="Group mode only: the group whose members confirm.")
    owner_confirmation: bool = Field(False, description="The owner confirms on top of the quorum or the group.")


class QuorumRuleAnswer(Resource):
    rule: QuorumRule


class ThresholdUpdate(RequestBody):
    threshold: int = Field(ge=1, le=100, description="Administrators who confirm in ADMIN_QUORUM mode.")


class ThresholdAnswer(Resource):
    admin_threshold: int


class NoQuery(QueryParams):
    pass
