"""Workspaces (tenants): isolated units of one company, on mainnet or testnet."""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel


class Workspace(TimestampedModel):
    company = fields.ForeignKeyField("models.Company", related_name="workspaces", on_delete=fields.RESTRICT)
    name = fields.CharField(max_length=200)
    #: "mainnet" or "testnet": the workspace sees only currencies of its own network type.
    network_type = fields.CharField(max_length=10)

    class Meta:
        table = "workspaces"
