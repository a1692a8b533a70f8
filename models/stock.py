"""The single-use stock of the signers: secret material made ahead of time, each item used once.

A :class:`StockItem` is one unit of single-use material for one key set (``kind`` names what it
is: ``ecdsa_presignature``, a threshold ECDSA presignature made by the two service signers). Each
participant that holds a share of it keeps that share in a :class:`StockPart`, sealed with its
own key (the other participants, the database and the coordinator cannot open it).

Life of an item (``status``)::

    filling ─▶ ready ─▶ taken (by exactly one signing session: ``session``, unique)
       └────────┴──────▶ discarded (a run that failed half way, parts that disagree)

``taken`` is written in the signing session's own transaction, which commits before any
participant is asked to use its part; a participant deletes its part in the transaction that
publishes what it made with it. An item is therefore never taken twice (the row lock and the
status) and a part never used twice (it is gone after its one use), across crashes and retries.
"""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel

#: Statuses of a stock item, in order (``discarded`` may follow ``filling`` or ``ready``).
STATUSES = ("filling", "ready", "taken", "discarded")


class StockItem(TimestampedModel):
    key_set = fields.ForeignKeyField("models.KeySet", related_name=False, on_delete=fields.CASCADE)
    kind = fields.CharField(max_length=40)
    status = fields.CharField(max_length=10, default="filling")
    #: The participants that each hold a part (the item is ready once all of them stored theirs).
    participants = fields.JSONField()
    #: What the parts agree on publicly (an ECDSA presignature: its nonce commitment ``big_r``).
    public = fields.JSONField(null=True, description="What the parts agree on publicly (an ECDSA presignature's big_r).")
    #: The signing session that took the item (at most one, ever).
    session = fields.OneToOneField("models.SigningSession", related_name=False, null=True,
                                   on_delete=fields.RESTRICT)
    taken_at = fields.DatetimeField(null=True)
    failure_reason = fields.TextField(null=True)

    class Meta:
        table = "signing_stock_items"
        indexes = (("key_set_id", "kind", "status"),)


class StockPart(TimestampedModel):
    """One participant's sealed part of an item; deleted when it is used."""

    item = fields.ForeignKeyField("models.StockItem", related_name=False, on_delete=fields.CASCADE)
    participant = fields.SmallIntField()
    sealed = fields.BinaryField()

    class Meta:
        table = "signing_stock_parts"
        unique_together = (("item", "participant"),)
