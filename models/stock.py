"""The single-use stock: sealed secret items made ahead of time, each used by at most one session.

One row is one item (a FROST round-one nonce pair with its public commitments, an ECDSA
presignature, ...). Its ``state`` only moves forward::

    available ──take──▶ taken (session_id set) ──use──▶ used (sealed wiped)
        │                    │
        └──discard──▶ discarded (sealed wiped) ◀──discard──┘

The database holds the rule too: a CHECK ties ``session_id`` to every state but ``available``
and ``sealed`` to ``available``/``taken`` only (migration 0320), so no code path can hand a
used item out again. domain/signing/stock.py is the only writer.
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock

STATES = ("available", "taken", "used", "discarded")


class StockItem(Model):
    """One sealed single-use item of a holder (a signer, or a signer pair) for a kind of use."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    created_at = fields.DatetimeField(default=clock.now)
    #: What the item is and which scheme uses it, e.g. ``frost-nonce:FROST-ED25519-SHA512-v1``.
    kind = fields.CharField(max_length=80)
    #: The key set it was made for; null: usable with any key set of its kind (FROST nonces).
    key_set = fields.ForeignKeyField("models.KeySet", related_name=False, null=True, on_delete=fields.CASCADE)
    #: Who can open ``sealed``: one participant ("1") or a signer pair ("1+2").
    holder = fields.CharField(max_length=20)
    #: Public part, readable by the coordinator (e.g. the hiding and binding commitments).
    public = fields.BinaryField(null=True)
    #: Secret part, sealed with the holder's key; wiped (null) once used or discarded.
    sealed = fields.BinaryField(null=True)
    state = fields.CharField(max_length=10, default="available")
    #: The one session that took it (never changes once set).
    session_id = fields.UUIDField(null=True)
    taken_at = fields.DatetimeField(null=True)
    used_at = fields.DatetimeField(null=True)

    class Meta:
        table = "single_use_stock"
