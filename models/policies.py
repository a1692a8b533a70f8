"""Policies (Transfer and AML), their windows, and transaction approvals (docs/policies.md).

- :class:`PolicyVersion`: one published version of a workspace's policy of one type. Versions
  are immutable: publishing (or rolling back, which publishes a copy) adds a row with the next
  ``version``; the newest row is the published policy. ``rules`` is the validated rule list as
  JSON (domain.policies.rules), ``no_match_action`` what happens when no rule matches.
- :class:`PolicyTagReference`: the tags the *published* version of each type refers to (rewritten
  on every publish): what keeps a tag from being deleted or unprotected (TAG_IS_USED_IN_POLICY_RULE).
- :class:`PolicyWindowEntry`: one withdrawal counted in one rule window (``window_key``);
  ``released_at`` set when the withdrawal is declined, frozen, expired, cancelled or fails
  before broadcast. :class:`PolicyWindowBucket` keeps the running count and sums of a window
  key per time bucket, so the usage of a window is read from at most ~65 bucket rows plus the
  entries of the one partial bucket at the window's start, never by scanning every entry.
- :class:`TransactionApproval`: the approval request of a withdrawal in awaiting_approvals (its
  requirements copied from the stored check results) and :class:`TransactionApprovalVote`, one
  vote per user, cast from the user's paired device.
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import TimestampedModel, fiat_field, money_field


class PolicyVersion(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    #: ``transfer`` or ``aml``.
    policy_type = fields.CharField(max_length=16)
    version = fields.IntField()
    rules = fields.JSONField(default=list)
    #: ``block`` (fail closed, the default) or ``allow``.
    no_match_action = fields.CharField(max_length=16, default="block")
    published_by = fields.UUIDField(null=True)
    published_at = fields.DatetimeField(default=clock.now)
    #: A rollback: the version this one copies.
    copied_from_version = fields.IntField(null=True)

    class Meta:
        table = "policy_versions"
        unique_together = (("workspace_id", "policy_type", "version"),)


class PolicyTagReference(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    policy_type = fields.CharField(max_length=16)
    tag = fields.ForeignKeyField("models.Tag", related_name=False, on_delete=fields.RESTRICT)
    tag_id: uuid.UUID
    rule_id = fields.CharField(max_length=64)
    rule_name = fields.CharField(max_length=100, null=True)

    class Meta:
        table = "policy_tag_references"
        indexes = (("workspace_id", "tag_id"), ("workspace_id", "policy_type"))


class PolicyWindowEntry(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    window_key = fields.CharField(max_length=200)
    transaction = fields.ForeignKeyField("models.Transaction", related_name=False, on_delete=fields.RESTRICT)
    transaction_id: uuid.UUID
    amount = money_field()
    amount_usd = fiat_field(null=True)
    at = fields.DatetimeField()
    #: The start of the bucket the entry is counted in (see PolicyWindowBucket).
    bucket = fields.DatetimeField()
    released_at = fields.DatetimeField(null=True)

    class Meta:
        table = "policy_window_entries"
        unique_together = (("window_key", "transaction_id"),)
        indexes = (("window_key", "at"), ("transaction_id",))


class PolicyWindowBucket(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    window_key = fields.CharField(max_length=200)
    bucket = fields.DatetimeField()
    count = fields.IntField(default=0)
    amount = money_field(default=0)
    amount_usd = fiat_field(default=0)

    class Meta:
        table = "policy_window_buckets"
        unique_together = (("window_key", "bucket"),)


class TransactionApproval(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    transaction = fields.OneToOneField("models.Transaction", related_name=False, on_delete=fields.RESTRICT)
    transaction_id: uuid.UUID
    #: ``pending``, ``approved``, ``declined``, ``expired`` or ``closed`` (the withdrawal left
    #: awaiting_approvals another way: cancelled, frozen, expired by its own limit).
    status = fields.CharField(max_length=12, default="pending")
    #: The requirements (contract: approver_user_ids, group_id, threshold, source), in check order.
    requirements = fields.JSONField(default=list)
    #: Every user who may vote (the union of the requirements' approvers), for the "my votes" list.
    approver_ids = fields.JSONField(default=list)
    expires_at = fields.DatetimeField()
    decided_at = fields.DatetimeField(null=True)

    class Meta:
        table = "transaction_approvals"
        indexes = (("workspace_id", "status"), ("status", "expires_at"))


class TransactionApprovalVote(TimestampedModel):
    approval = fields.ForeignKeyField("models.TransactionApproval", related_name=False, on_delete=fields.RESTRICT)
    approval_id: uuid.UUID
    user_id = fields.UUIDField()
    device_id = fields.UUIDField()
    #: ``approve`` or ``decline``.
    vote = fields.CharField(max_length=8)
    reason = fields.CharField(max_length=500, null=True)

    class Meta:
        table = "transaction_approval_votes"
        unique_together = (("approval_id", "user_id"),)
