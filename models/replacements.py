"""Replacements of a broadcast withdrawal that waits too long (domain.withdrawals.replacement).

An EVM transaction whose fee the network no longer takes waits in the pool; the pipeline then
signs a replacement: the same payment (its nonce) with both fees raised, under a signing session
of its own. One row per try, numbered per withdrawal: ``signing`` (its session runs), ``signed``
(signature and hash stored, not sent yet), ``broadcast`` (the node accepted it: the withdrawal's
``tx_hash``, ``transfer`` and ``signature`` are the replacement's from then on, ``replaced``
keeps the attempt it replaced), ``refused`` (the node refused it, or its signing failed: it can
never execute), ``deferred`` (not sent: the balance cannot cover the raised fee limit, or the
node's balance check failed), ``capped`` (not sent: the raised fee would pass the network's cap;
never tried again) and ``abandoned`` (the withdrawal ended while it was being signed).
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel, money_field

SIGNING = "signing"
SIGNED = "signed"
BROADCAST = "broadcast"
REFUSED = "refused"
DEFERRED = "deferred"
CAPPED = "capped"
ABANDONED = "abandoned"
IN_FLIGHT = (SIGNING, SIGNED)


class WithdrawalReplacement(TimestampedModel):
    workspace_id = fields.UUIDField()
    transaction_id = fields.UUIDField(db_index=True)
    #: 1, 2, ... per withdrawal, in order.
    number = fields.IntField()
    #: signing | signed | broadcast | refused | deferred | capped | abandoned (see the module).
    state = fields.CharField(max_length=20)
    reason_code = fields.CharField(max_length=64, null=True)
    reason = fields.TextField(null=True)
    #: The withdrawal's attempt this one replaces: tx_hash, transfer, signature (hex), signing
    #: session ids and broadcast_at, as the withdrawal row had them.
    replaced = fields.JSONField(null=True)
    #: The replacement's unsigned transfer (the adapter's body) and its fee limit.
    transfer = fields.JSONField(null=True)
    fee_limit = money_field(null=True)
    #: The withdrawal's fee limit before this replacement raised it (given back when it is refused).
    previous_fee_limit = money_field(null=True)
    signing_session_id = fields.UUIDField(null=True, unique=True)
    signature = fields.BinaryField(null=True)
    tx_hash = fields.CharField(max_length=100, null=True)
    broadcast_at = fields.DatetimeField(null=True)

    class Meta:
        table = "withdrawal_replacements"
        unique_together = (("transaction_id", "number"),)

    def __str__(self) -> str:
        return f"replacement {self.number} of {uuid.UUID(str(self.transaction_id))}: {self.state}"
