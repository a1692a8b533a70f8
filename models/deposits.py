"""The chain watcher's progress per network (domain.deposits).

* :class:`ChainWatchState`: one row per network, locked per unit of work. ``scanned_height``:
  every block up to it has been turned into deposits (a block-read network), or every watched
  address has been read up to it (an address-watched network: Solana). ``halted_at`` is set when
  the watcher found that the chain no longer holds a block it had already credited as final (a
  reorganization deeper than the network's confirmations): it stops crediting that network until
  an operator resumes it (``custody watch resume``).
* :class:`ChainWatchBlock`: the hash of each block the watcher read, for a recent window per
  network: how the watcher knows the chain it credited is still the chain.
* :class:`ChainAddressCursor`: per watched account of an address-watched network (an address
  and its token accounts), the newest final transaction signature read, from which the next
  ``getSignaturesForAddress`` continues (``until``).
"""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel


class ChainWatchState(TimestampedModel):
    """``scanned_height``: every block up to it has been turned into deposits (row locked per scan)."""

    network = fields.CharField(max_length=40, unique=True)
    scanned_height = fields.BigIntField(default=0)
    #: When the watcher stopped: the chain replaced a block it had credited as final.
    halted_at = fields.DatetimeField(null=True)
    #: Why, for the operator: the height, the hash read then, the hash the chain has now.
    halt_details = fields.JSONField(null=True)

    class Meta:
        table = "chain_watch_states"


class ChainWatchBlock(TimestampedModel):
    """A block the watcher read: its height and hash (a recent window per network)."""

    network = fields.CharField(max_length=40)
    height = fields.BigIntField()
    hash = fields.CharField(max_length=100)
    parent_hash = fields.CharField(max_length=100)

    class Meta:
        table = "chain_watch_blocks"
        unique_together = (("network", "height"),)


class ChainAddressCursor(TimestampedModel):
    """Where the watcher is in one account's history (an address-watched network)."""

    network = fields.CharField(max_length=40)
    #: The account whose signatures are read: the wallet address, or one of its token accounts.
    account = fields.CharField(max_length=100)
    #: The wallet address the account belongs to (deposits are credited to it).
    owner = fields.CharField(max_length=100)
    #: The newest final signature read (``until`` of the next read); null: nothing read yet.
    last_signature = fields.CharField(max_length=100, null=True)
    last_slot = fields.BigIntField(null=True)
    #: The final height the account was last read up to.
    checked_height = fields.BigIntField(default=0)

    class Meta:
        table = "chain_address_cursors"
        unique_together = (("network", "account"),)
        indexes = (("network", "checked_height"),)
