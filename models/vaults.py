"""Vaults: logical groups of wallets sharing one threshold key set.

A vault's key set (models.keys) is generated when the vault is created; its wallets, receiving
addresses and balances live in models.wallets. ``is_frozen`` stops outgoing activity (no
signing, no new wallets); deposits are still credited.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class Vault(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name="vaults", on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    name = fields.CharField(max_length=100)
    is_frozen = fields.BooleanField(default=False)

    class Meta:
        table = "vaults"
