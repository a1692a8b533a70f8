"""Transactions of workspace wallets (deposits, and later withdrawals) and the change log state.

Every write of a transaction (creation or any later change) gives it a fresh position ``seq``
in commit order without a lock (core/commit_order.py: the writing database transaction's id and
an ordinal); the change log is "transactions ordered by seq", so one row is one item in its
current state. Readers serve only positions below the horizon, which are final, so a reader
paging by ``seq`` never skips a transaction that commits later (domain.transactions). The
workspace's :class:`ChangeLog` row keeps only what compaction decided (``min_cursor``).

``chain_ref`` makes a deposit exactly-once: ``<network>:<tx_hash>:<address>:<currency>``.

A withdrawal (domain.withdrawals) carries its pipeline state on the same row: who created it,
where it goes (an internal wallet, a whitelisted wallet or a one-time address), its request
keys (idempotency, attempt, UTXO intent), whether its amounts are ``holding`` (in ``held``),
the unsigned transfer, its one signing session and signature, and its confirmations.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel, money_field


class Transaction(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    vault = fields.ForeignKeyField("models.Vault", related_name=False, on_delete=fields.RESTRICT)
    vault_id: uuid.UUID
    #: The workspace wallet the transaction moves value in or out of.
    wallet = fields.ForeignKeyField("models.Wallet", related_name="transactions", on_delete=fields.RESTRICT)
    wallet_id: uuid.UUID
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
    #: The reason behind ``error_code`` in words (the network's message, the check's reason).
    error_message = fields.TextField(null=True)
    #: Fiat value of ``amount`` from the price table when the transaction was recorded.
    amount_usdt = fields.CharField(max_length=80, null=True)
    #: Side of the fee-paying wallet when it is not ``from`` (a token transfer's native coin wallet).
    fee_payer_side = fields.JSONField(null=True)

    # --- withdrawals (domain.withdrawals) ---------------------------------------------------
    #: The user (person or API user) who created it: the only one who may cancel it.
    created_by = fields.UUIDField(null=True)
    #: ``internal`` (a wallet of the workspace), ``whitelisted`` or ``one_time``.
    destination_type = fields.CharField(max_length=12, null=True)
    #: Internal transfer: the workspace wallet credited when the transfer is final.
    target_wallet = fields.ForeignKeyField("models.Wallet", related_name=False, null=True,
                                           on_delete=fields.RESTRICT)
    target_wallet_id: uuid.UUID | None
    whitelisted_wallet = fields.ForeignKeyField("models.WhitelistedWallet", related_name=False, null=True,
                                                on_delete=fields.RESTRICT)
    whitelisted_wallet_id: uuid.UUID | None
    #: Account family: the gas price; UTXO family: sat/vB (what the transfer is built with).
    fee_rate = money_field(null=True)
    #: SHA-256 of the request (body and keys) under ``idempotency_key``.
    request_hash = fields.CharField(max_length=64, null=True)
    attempt_key = fields.CharField(max_length=100, null=True)
    attempt_number = fields.IntField(null=True)
    retry_of = fields.ForeignKeyField("models.Transaction", related_name=False, null=True,
                                      on_delete=fields.RESTRICT)
    retry_of_id: uuid.UUID | None
    utxo_intent_key = fields.CharField(max_length=100, null=True)
    #: True while amount and fee limit are in the wallets' ``held`` (released exactly once).
    holding = fields.BooleanField(default=False)
    #: A token transfer holding its amount but not yet its fee: autofuel is refuelling its address
    #: (domain.withdrawals.fees); it waits in ``approved`` until the gas is there.
    awaiting_gas = fields.BooleanField(default=False)
    #: Frozen: the status to return to on unfreeze, and since when.
    frozen_from = fields.CharField(max_length=24, null=True)
    frozen_at = fields.DatetimeField(null=True)
    #: A withdrawal not signing by then expires (moved by the frozen time on unfreeze).
    expires_at = fields.DatetimeField(null=True)
    #: Results of the check stage (domain.withdrawals.checks), one object per check.
    checks = fields.JSONField(null=True)
    #: The unsigned transfer body the adapter built (its signing payload is what was signed).
    transfer = fields.JSONField(null=True)
    #: The one signing session of this withdrawal: never a second one.
    signing_session_id = fields.UUIDField(null=True, unique=True)
    #: Every signing session of the transfer, one per signing payload (a Bitcoin spend signs each
    #: input), in order; ``signing_session_id`` is the first.
    signing_session_ids = fields.JSONField(null=True, description="Every signing session of the transfer, one per signing payload, in order (signing_session_id is the first).")
    signature = fields.BinaryField(null=True)
    confirmations = fields.IntField(null=True)
    broadcast_at = fields.DatetimeField(null=True)

    # --- AML screening (domain.aml) --------------------------------------------------------
    #: A copy of the transfer's screening record as the API shows it (models.aml.AmlScreening,
    #: written in the same database transaction): the list answers without a join.
    aml_screening = fields.JSONField(null=True)

    class Meta:
        table = "transactions"
        unique_together = (("workspace", "seq"), ("workspace", "idempotency_key"), ("workspace", "utxo_intent_key"))
        indexes = (("wallet_id", "created_at"), ("workspace_id", "created_at"), ("network", "from_address", "status"),
                   ("direction", "status"), ("workspace_id", "attempt_key"), ("target_wallet_id", "created_at"))


class ChangeLog(TimestampedModel):
    """A workspace's change-log retention: ``min_cursor`` is the oldest cursor the log can still
    serve (see domain.transactions); written by compaction only, never by a writer."""

    workspace = fields.OneToOneField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    min_cursor = fields.BigIntField(default=0)
    compacted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "transaction_change_logs"
