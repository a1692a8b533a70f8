"""Vaults: logical groups of wallets sharing one threshold key set.

Minimal here (the foundation); the wallets work adds wallets, addresses and balances.
"""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel


class Vault(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name="vaults", on_delete=fields.RESTRICT)
    name = fields.CharField(max_length=100)
    is_frozen = fields.BooleanField(default=False)

    class Meta:
        table = "vaults"
