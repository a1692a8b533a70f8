"""The Transaction resource, its sides, and the change log."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.balances import BalanceAmounts
from api.schemas.common import AtomicAmount, DecimalAmount, QueryParams, Resource
from domain import transactions
from models.transactions import Transaction as TransactionRow


class TransactionSide(Resource):
    """One side (``from`` or ``to``) of a transaction.

    On a wallet of the workspace ``balance`` is that wallet's absolute balance after the
    operation (overwrite a local copy with it, never add; order by ``balance_version``). On an
    external address only ``address`` (and ``block_height``) are known.
    """

    address: str | None
    balance: BalanceAmounts | None
    balance_version: int | None = Field(description="Per-address version of the balance (not a cursor).")
    block_height: int | None
    external: bool
    wallet_id: uuid.UUID | None = None
    currency_id: str | None = None
    vault_id: uuid.UUID | None
    vault_name: str | None
    whitelisted_wallet_name: str | None
    workspace_id: uuid.UUID | None
    workspace_name: str | None


class Transaction(Resource):
    """A deposit or a withdrawal in its current state."""

    id: uuid.UUID
    type: Literal["deposit", "withdrawal"]
    status: str = Field(description="See the transaction statuses in docs/wallets.md.")
    workspace_id: uuid.UUID
    vault_id: uuid.UUID
    wallet_id: uuid.UUID
    currency_id: str
    symbol: str
    descriptor: str | None
    decimals: int
    blockchain_name: str
    amount: AtomicAmount = Field(description="Atomic units (smallest unit of the currency).")
    formatted_amount: DecimalAmount
    fee: AtomicAmount
    formatted_fee: DecimalAmount
    fee_limit: AtomicAmount
    fee_asset_id: str
    from_: TransactionSide = Field(alias="from")
    to: TransactionSide
    tx_hash: str | None
    block_height: int | None
    block_time: str | None = Field(description="RFC 3339 time of the block that holds the transaction.")
    balance_version: int | None
    seq: int | None = Field(description="Change-log position of the transaction's last change.")
    idempotency_key: str | None
    error_code: str | None
    created_at: str
    updated_at: str

    @classmethod
    def of(cls, row: TransactionRow) -> "Transaction":
        return cls.model_validate(transactions.to_resource(row))


class ChangesQuery(QueryParams):
    since_cursor: str | None = Field(None, max_length=40, description="A cursor this API returned; absent: from "
                                     "the start of the log.")
    limit: int = Field(transactions.DEFAULT_PAGE, ge=1, le=transactions.MAX_PAGE,
                       description=f"Page size, 1 to {transactions.MAX_PAGE}.")


class ChangesPage(Resource):
    items: list[Transaction] = Field(description="Transactions changed after the cursor, one per transaction, in "
                                     "their current state, in position order.")
    next_cursor: int
    has_more: bool
    min_cursor: int = Field(description="The oldest cursor the log can still serve.")

