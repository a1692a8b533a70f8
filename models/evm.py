"""Nonces of the vaults' EVM addresses, the EVM adapter's own ledger (domain.networks.evm).

An EVM account's transactions are ordered by a nonce, and at most one transaction per nonce is
ever executed. The adapter hands nonces out here, never from the node's count alone, so that no
two payments ever get one nonce, whatever runs concurrently or crashes:

* :class:`EvmAccount` is one row per (network, address), locked (``SELECT ... FOR UPDATE``)
  whenever a nonce is taken or given back; ``next_nonce`` is the first nonce never handed out;
* :class:`EvmNonce` is one nonce held by one payment (its ``intent_key``, the withdrawal's
  ``withdrawal:<id>``): every transaction built for that payment (a retry, a replacement with a
  higher fee) reuses it, so at most one of them can execute. ``tx_hashes`` lists each signed
  transaction submitted with it; ``max_fee_per_gas`` / ``max_priority_fee_per_gas`` are the
  highest fees submitted with it (the first build's until then), which a replacement must raise
  by 10%. A nonce whose payment was given
  up before the node accepted any transaction with it is released (``intent_key`` null) and is
  the first one handed out again.
"""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel, money_field


class EvmAccount(TimestampedModel):
    network = fields.CharField(max_length=40)
    address = fields.CharField(max_length=42)
    #: The first nonce never handed out (the node's count may be behind it while ours are pending).
    next_nonce = fields.BigIntField(default=0)

    class Meta:
        table = "evm_accounts"
        unique_together = (("network", "address"),)


class EvmNonce(TimestampedModel):
    network = fields.CharField(max_length=40)
    address = fields.CharField(max_length=42)
    nonce = fields.BigIntField()
    #: The payment holding it; null once released (free to hand out again).
    intent_key = fields.CharField(max_length=100, null=True)
    #: The last attempt's fees (wei per gas): a replacement raises both by 10%.
    max_fee_per_gas = money_field(null=True)
    max_priority_fee_per_gas = money_field(null=True)
    #: Every signed transaction submitted with this nonce, oldest first.
    tx_hashes = fields.JSONField(default=list)

    class Meta:
        table = "evm_nonces"
        unique_together = (("network", "address", "nonce"), ("network", "intent_key"))
