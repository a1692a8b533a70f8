"""The built-in devnet's own chain state: heads, blocks, mempool/mined transactions, accounts, UTXOs.

These tables are the devnet "node"; the rest of the service reads them only through the
network adapter (domain.networks), exactly as it would read a real node over RPC. Amounts are
atomic units in NUMERIC(78,0).
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import money_field


class DevnetChain(Model):
    """The head of one devnet network (one row per network; locked while a block is produced)."""

    network = fields.CharField(max_length=40, primary_key=True)
    height = fields.BigIntField(default=0)
    head_hash = fields.CharField(max_length=66, default="0" * 64)
    #: Height of the newest block that carried transactions (drives confirmation-only blocks).
    last_nonempty_height = fields.BigIntField(default=0)

    class Meta:
        table = "devnet_chains"


class DevnetBlock(Model):
    id = fields.BigIntField(primary_key=True)
    network = fields.CharField(max_length=40)
    height = fields.BigIntField()
    hash = fields.CharField(max_length=66)
    parent_hash = fields.CharField(max_length=66)
    produced_at = fields.DatetimeField(default=clock.now)
    tx_count = fields.IntField(default=0)

    class Meta:
        table = "devnet_blocks"
        unique_together = (("network", "height"),)


class DevnetTransaction(Model):
    """A submitted transaction: ``pending`` in the mempool, then ``confirmed`` or ``failed`` in a
    block (a failed account transfer still pays gas), or ``dropped`` when it could not even pay.

    The serial ``id`` is the mempool order; ``block_index`` the order inside its block.
    """

    id = fields.BigIntField(primary_key=True)
    network = fields.CharField(max_length=40)
    tx_hash = fields.CharField(max_length=80)
    #: ``transfer`` (signed) or ``faucet`` (credits from nowhere, development only).
    kind = fields.CharField(max_length=10)
    status = fields.CharField(max_length=10, default="pending")
    from_address = fields.CharField(max_length=100)
    #: Account family: the recipient; UTXO family: the first non-change recipient.
    to_address = fields.CharField(max_length=100)
    #: Token contract on an account network; "" for the native coin.
    asset = fields.CharField(max_length=100, default="")
    amount = money_field(default=0)
    #: Account family: gas_used x gas_price once mined (gas_limit x gas_price while pending);
    #: UTXO family: inputs minus outputs.
    fee = money_field(default=0)
    nonce = fields.BigIntField(null=True)
    gas_limit = fields.BigIntField(null=True)
    gas_price = money_field(null=True)
    gas_used = fields.BigIntField(null=True)
    #: The signed body exactly as submitted (family specific, see domain.networks.devnet).
    body = fields.JSONField(default=dict)
    signature = fields.BinaryField(null=True)
    block_height = fields.BigIntField(null=True)
    block_index = fields.IntField(null=True)
    error = fields.CharField(max_length=200, null=True)
    submitted_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "devnet_transactions"
        unique_together = (("network", "tx_hash"),)
        indexes = (("network", "status"), ("network", "block_height"))


class DevnetAccount(Model):
    """Account family: the next nonce of an address."""

    id = fields.BigIntField(primary_key=True)
    network = fields.CharField(max_length=40)
    address = fields.CharField(max_length=100)
    nonce = fields.BigIntField(default=0)

    class Meta:
        table = "devnet_accounts"
        unique_together = (("network", "address"),)


class DevnetBalance(Model):
    """Account family: the confirmed balance of an address in one asset ("" = native coin)."""

    id = fields.BigIntField(primary_key=True)
    network = fields.CharField(max_length=40)
    address = fields.CharField(max_length=100)
    asset = fields.CharField(max_length=100, default="")
    balance = money_field(default=0)

    class Meta:
        table = "devnet_balances"
        unique_together = (("network", "address", "asset"),)


class DevnetUtxo(Model):
    """UTXO family: one transaction output.

    ``spent_by`` is set when a mempool transaction reserves it (no double spend can enter the
    mempool); ``spent_height`` once that transaction is mined.
    """

    id = fields.BigIntField(primary_key=True)
    network = fields.CharField(max_length=40)
    tx_hash = fields.CharField(max_length=80)
    output_index = fields.IntField()
    address = fields.CharField(max_length=100)
    amount = money_field()
    created_height = fields.BigIntField()
    spent_by = fields.CharField(max_length=80, null=True)
    spent_height = fields.BigIntField(null=True)

    class Meta:
        table = "devnet_utxos"
        unique_together = (("network", "tx_hash", "output_index"),)
        indexes = (("network", "address"),)
