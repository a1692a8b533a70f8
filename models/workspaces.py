"""Workspaces (tenants): isolated units of one company, on mainnet or testnet."""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class Workspace(TimestampedModel):
    company = fields.ForeignKeyField("models.Company", related_name="workspaces", on_delete=fields.RESTRICT)
    company_id: uuid.UUID
    name = fields.CharField(max_length=200)
    #: "mainnet" or "testnet": the workspace sees only currencies of its own network type.
    network_type = fields.CharField(max_length=10)

    class Meta:
        table = "workspaces"


class OwnershipTransfer(TimestampedModel):
    """A transfer of a workspace's ownership (domain/ownership.py): the owner starts it, the
    named member accepts it. At most one is pending per workspace (a partial unique index)."""

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    from_user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.CASCADE)
    from_user_id: uuid.UUID
    to_user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.CASCADE)
    to_user_id: uuid.UUID
    #: pending -> accepted | declined | cancelled | expired.
    status = fields.CharField(max_length=10, default="pending")
    expires_at = fields.DatetimeField()
    decided_at = fields.DatetimeField(null=True)

    class Meta:
        table = "ownership_transfers"
