"""Wallets: one currency inside a vault, with its receiving address and its balance.

A vault has one :class:`WalletAddress` per network, derived from the vault's FROST group public
key; every wallet of that network in the vault (the native coin and its tokens) receives on it.
The address row carries ``balance_version``: it grows by one with every balance change of any
wallet on the address, so a client can order absolute balances (sync rule 2).

A :class:`Wallet` keeps its balance parts in atomic units (NUMERIC(78,0)): ``total`` (everything
the wallet holds), ``frozen`` (held back by a compliance hold) and ``held`` (outgoing transfers
in flight); available = total - frozen - held is derived, never stored.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel, money_field


class WalletAddress(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name="addresses", on_delete=fields.RESTRICT)
    vault_id: uuid.UUID
    #: Registry network id (domain.currencies).
    network = fields.CharField(max_length=40)
    address = fields.CharField(max_length=100)
    #: The vault's group public key the address is derived from (32 bytes).
    public_key = fields.BinaryField()
    #: Grows by one with every balance change on this address (never reused, never reset).
    balance_version = fields.BigIntField(default=0)

    class Meta:
        table = "wallet_addresses"
        unique_together = (("network", "address"), ("vault", "network"))


class Wallet(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name="wallets", on_delete=fields.RESTRICT)
    vault_id: uuid.UUID
    address = fields.ForeignKeyField("models.WalletAddress", related_name="wallets", on_delete=fields.RESTRICT)
    address_id: uuid.UUID
    #: Registry currency id (domain.currencies).
    currency_id = fields.CharField(max_length=40)
    status = fields.CharField(max_length=12, default="active")
    total = money_field(default=0)
    frozen = money_field(default=0)
    held = money_field(default=0)
    #: Height of the newest block reflected in the balance.
    block_height = fields.BigIntField(default=0)

    class Meta:
        table = "wallets"
        unique_together = (("vault", "currency_id"),)
        indexes = (("workspace_id", "currency_id"), ("workspace_id", "created_at"))
