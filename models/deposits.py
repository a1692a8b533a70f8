"""The chain watcher's progress per network."""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel


class ChainWatchState(TimestampedModel):
    """``scanned_height``: every block up to it has been turned into deposits (row locked per scan)."""

    network = fields.CharField(max_length=40, unique=True)
    scanned_height = fields.BigIntField(default=0)

    class Meta:
        table = "chain_watch_states"
