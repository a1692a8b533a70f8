"""Transactions of workspace wallets (deposits, and later withdrawals) and the change log state.

Every write of a transaction (creation or any later change) gives it a fresh position ``seq``
from its workspace's :class:`ChangeLog` counter; the change log is "transactions ordered by
seq", so one row is one item in its current state. Positions are allocated under the
ChangeLog row lock, held until the writing transaction commits: commit order equals position
order, and a reader paging by ``seq`` can never skip a transaction that commits later with a
lower position. The same counter is the cursor of the balance snapshot.

``chain_ref`` makes a deposit exactly-once: ``<network>:<tx_hash>:<address>:<currency>``.
"""

from __future__ import annotations

from tortoise import fields

from models.base import TimestampedModel, money_field


class Transaction(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    #: The workspace wallet the transaction moves value in or out of.
    wallet = fields.ForeignKeyField("models.Wallet", related_name="transactions", on_delete=fields.RESTRICT)
    #: ``deposit`` (incoming) or ``withdrawal`` (outgoing).
    direction = fields.CharField(max_length=10)
    status = fields.CharField(max_length=24)
    currency_id = fields.CharField(max_length=40)
    network = fields.CharField(max_length=40)
    amount = money_field()
    fee = money_field(default=0)
    fee_limit = money_field(default=0)
    fee_currency_id = fields.CharField(max_length=40)
    from_address = fields.CharField(max_length=100, null=True)
    to_address = fields.CharField(max_length=100, null=True)
    #: Transaction sides as written with the last change (absolute balances after it).
    from_side = fields.JSONField(default=dict)
    to_side = fields.JSONField(default=dict)
    tx_hash = fields.CharField(max_length=100, null=True, db_index=True)
    block_height = fields.BigIntField(null=True)
    block_time = fields.DatetimeField(null=True)
    #: balance_version of the workspace address after this transaction's last balance change.
    balance_version = fields.BigIntField(null=True)
    #: Change-log position of the last change; null once compacted out of the log.
    seq = fields.BigIntField(null=True)
    chain_ref = fields.CharField(max_length=255, null=True, unique=True)
    idempotency_key = fields.CharField(max_length=100, null=True)
    error_code = fields.CharField(max_length=64, null=True)

    class Meta:
        table = "transactions"
        unique_together = (("workspace", "seq"),)
        indexes = (("wallet_id", "created_at"),)


class ChangeLog(TimestampedModel):
    """A workspace's change-log counter: ``position`` is the newest allocated position,
    ``min_cursor`` the oldest cursor the log can still serve (see domain.transactions)."""

    workspace = fields.OneToOneField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    position = fields.BigIntField(default=0)
    min_cursor = fields.BigIntField(default=0)
    compacted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "transaction_change_logs"
