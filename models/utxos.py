"""Unspent outputs of the vaults' addresses on real UTXO networks (Bitcoin), the adapter's own index.

The Bitcoin adapter (:mod:`domain.networks.bitcoin`) fills it from the blocks the deposit
watcher reads (outputs paying a wallet address, inputs spending one) and from the transfers it
submits; it selects coins from it. A row is spendable when it is confirmed (``block_height``),
not spent (``spent_by``) and not reserved by another payment (``reserved_by``, the payment's
intent key, released when that payment is given up).
"""

from __future__ import annotations

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import money_field


class ChainUtxo(Model):
    id = fields.BigIntField(primary_key=True)
    network = fields.CharField(max_length=40)
    tx_hash = fields.CharField(max_length=80)
    output_index = fields.IntField()
    address = fields.CharField(max_length=100)
    amount = money_field()
    #: The locking script (hex): what a spend's BIP-341 sighash commits to.
    script_pubkey = fields.CharField(max_length=200)
    #: Height of the block holding it; null while unconfirmed (our own change, just broadcast).
    block_height = fields.BigIntField(null=True)
    #: Transaction spending it (submitted by us, or seen in a block), and that block's height.
    spent_by = fields.CharField(max_length=80, null=True)
    spent_height = fields.BigIntField(null=True)
    #: Intent key of the payment it is reserved for (chosen by coin selection, not yet submitted).
    reserved_by = fields.CharField(max_length=100, null=True)
    reserved_at = fields.DatetimeField(null=True)
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "chain_utxos"
        unique_together = (("network", "tx_hash", "output_index"),)
        indexes = (("network", "address", "spent_by"), ("network", "reserved_by"), ("network", "spent_by"))
