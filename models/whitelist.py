"""Whitelisted external wallets and the workspace's one-time address setting.

A :class:`WhitelistedWallet` is a counterparty address registered for one currency (the spec's
"external whitelisted wallet"); a withdrawal may name it with ``target_whitelisted_asset_id``.
Deleting one keeps the row (``deleted_at``): transactions that went to it still name it, and
the audit trail stays whole. At most one live entry per (workspace, currency, address): a
partial unique index (migration 0021) backs the check in domain.whitelist.

:class:`WhitelistSettings` holds whether withdrawals may go to a one-time address (neither
internal nor whitelisted). No row means the default: forbidden.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class WhitelistedWallet(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    name = fields.CharField(max_length=100)
    #: Registry currency id and its network (domain.currencies).
    currency_id = fields.CharField(max_length=40)
    network = fields.CharField(max_length=40)
    #: Normalized for the network (domain.networks adapters).
    address = fields.CharField(max_length=100)
    created_by = fields.UUIDField(null=True)
    deleted_at = fields.DatetimeField(null=True)
    deleted_by = fields.UUIDField(null=True)

    class Meta:
        table = "whitelisted_wallets"
        indexes = (("workspace_id", "currency_id", "address"), ("workspace_id", "created_at"))


class WhitelistSettings(TimestampedModel):
    workspace = fields.OneToOneField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    #: Whether a withdrawal may go to an address that is neither internal nor whitelisted.
    one_time_addresses_allowed = fields.BooleanField(default=False)
    updated_by = fields.UUIDField(null=True)

    class Meta:
        table = "whitelist_settings"
