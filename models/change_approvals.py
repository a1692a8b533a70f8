"""Change approvals: per-workspace rules, requests, their approver sets and votes, the events
published to WebSocket listeners and the push notifications recorded by the database provider.

domain/change_approvals/ has the rules; docs/change-approvals.md the design.
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import TimestampedModel


class QuorumSettings(TimestampedModel):
    """The workspace's administrator threshold (one for every rule in ADMIN_QUORUM mode)."""

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE,
                                       unique=True)
    workspace_id: uuid.UUID
    admin_threshold = fields.IntField(default=1)

    class Meta:
        table = "quorum_settings"


class ActionRule(TimestampedModel):
    """The rule of one gated action in one workspace (no row: off, the default)."""

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    action = fields.CharField(max_length=40)
    enabled = fields.BooleanField(default=False)
    mode = fields.CharField(max_length=40)
    group = fields.ForeignKeyField("models.Group", related_name=False, null=True, on_delete=fields.SET_NULL)
    group_id: uuid.UUID | None
    #: The owner confirms on top of the administrator quorum or the group.
    owner_confirmation = fields.BooleanField(default=False)

    class Meta:
        table = "quorum_action_rules"
        unique_together = (("workspace_id", "action"),)


class ChangeRequest(TimestampedModel):
    """A gated change waiting for (or past) its confirmations."""

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    action = fields.CharField(max_length=40)
    operation = fields.CharField(max_length=40, null=True)
    mode = fields.CharField(max_length=40)
    #: What will be changed, exactly as the gated service received it (JSON).
    payload = fields.JSONField(default=dict)
    #: Names of what the payload refers to, captured at creation (null: no snapshot).
    display = fields.JSONField(null=True)
    #: SHA-256 of action + canonical payload: the initiator repeating the change finds this request.
    fingerprint = fields.CharField(max_length=64)
    initiator = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.RESTRICT)
    initiator_id: uuid.UUID
    #: PENDING, APPROVED, EXECUTED, FAILED, REJECTED, EXPIRED, CANCELLED.
    status = fields.CharField(max_length=12, default="PENDING", db_index=True)
    expires_at = fields.DatetimeField()
    failure_code = fields.CharField(max_length=64, null=True)
    failure_reason = fields.TextField(null=True)
    decided_at = fields.DatetimeField(null=True)
    executed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "change_requests"
        indexes = (("workspace_id", "status", "created_at"), ("initiator_id", "fingerprint", "status"))


class ApproverSet(Model):
    """One set of approvers of a request (owner, administrators or a group) with its threshold."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    request = fields.ForeignKeyField("models.ChangeRequest", related_name=False, on_delete=fields.CASCADE)
    request_id: uuid.UUID
    #: "owner", "admin_quorum" or "group:<group id>".
    external_id = fields.CharField(max_length=60)
    kind = fields.CharField(max_length=20)
    threshold = fields.IntField()
    #: PENDING, APPROVED, REJECTED, CANCELLED, EXPIRED.
    status = fields.CharField(max_length=12, default="PENDING")
    position = fields.IntField(default=0)

    class Meta:
        table = "change_request_sets"


class SetApprover(Model):
    """One approver of one set, and their vote."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    approver_set = fields.ForeignKeyField("models.ApproverSet", related_name=False, on_delete=fields.CASCADE)
    approver_set_id: uuid.UUID
    request = fields.ForeignKeyField("models.ChangeRequest", related_name=False, on_delete=fields.CASCADE)
    request_id: uuid.UUID
    user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.CASCADE)
    user_id: uuid.UUID
    #: PENDING, APPROVED, REJECTED, CANCELLED, EXPIRED.
    status = fields.CharField(max_length=12, default="PENDING")
    device_id = fields.UUIDField(null=True)
    voted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "change_request_approvers"
        unique_together = (("approver_set_id", "user_id"),)


class ChangeApprovalEvent(Model):
    """A progress event of a request, read by the WebSocket streams in ``id`` order.

    ``recipients`` are the initiator and the approvers (user ids as strings); members who may see
    every request of the workspace (VIEW_CHANGE_APPROVALS) get every event of it too.
    """

    id = fields.BigIntField(primary_key=True)
    workspace_id = fields.UUIDField(db_index=True)
    request_id = fields.UUIDField()
    event = fields.CharField(max_length=60)
    recipients = fields.JSONField(default=list)
    data = fields.JSONField(default=dict)
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "change_approval_events"


class PushNotification(TimestampedModel):
    """A push notification handed to the provider (the database provider keeps it here)."""

    workspace_id = fields.UUIDField(db_index=True)
    request_id = fields.UUIDField(null=True)
    user_id = fields.UUIDField()
    device_id = fields.UUIDField()
    provider = fields.CharField(max_length=30)
    event = fields.CharField(max_length=60)
    title = fields.CharField(max_length=200)
    body = fields.TextField()
    data = fields.JSONField(default=dict)

    class Meta:
        table = "push_notifications"
