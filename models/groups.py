"""Groups of workspace members: the approver sets of the change approvals' group mode.

A group has its own ``threshold`` (how many of its members confirm in group mode). Deleting a
group keeps its row (``deleted_at``): requests and rules that named it still show its name.
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import TimestampedModel


class Group(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    name = fields.CharField(max_length=100)
    #: How many members confirm a request in group mode (1 or more).
    threshold = fields.IntField(default=1)
    deleted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "groups"


class GroupMember(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    group = fields.ForeignKeyField("models.Group", related_name=False, on_delete=fields.CASCADE)
    group_id: uuid.UUID
    user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.CASCADE)
    user_id: uuid.UUID
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "group_members"
        unique_together = (("group_id", "user_id"),)
