"""The Transaction resource, its sides, the change log and the filtered list."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import AwareDatetime, Field

from api.schemas.aml import AmlScreening
from api.schemas.balances import BalanceAmounts
from api.schemas.common import AtomicAmount, DecimalAmount, QueryParams, Resource
from domain import transaction_statuses as statuses
from domain import transactions
from models.transactions import Transaction as TransactionRow

TransactionStatus = Literal[statuses.ALL]


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
    """A deposit or a withdrawal in its current state (docs/withdrawals.md)."""

    id: uuid.UUID
    type: Literal["deposit", "withdrawal"]
    status: TransactionStatus = Field(description="See the status table in docs/withdrawals.md.")
    workspace_id: uuid.UUID
    vault_id: uuid.UUID
    wallet_id: uuid.UUID
    currency_id: str
    symbol: str
    descriptor: str | None
    decimals: int
    blockchain_name: str
    network_id: str
    amount: AtomicAmount = Field(description="Atomic units (smallest unit of the currency).")
    formatted_amount: DecimalAmount
    amount_usdt: DecimalAmount | None = Field(description="Value of the amount from the price table when recorded.")
    fee: AtomicAmount = Field(description="The actual network fee once known (0 before), in fee_asset_id.")
    formatted_fee: DecimalAmount
    fee_limit: AtomicAmount = Field(description="The most the network fee may be (held until final).")
    formatted_fee_limit: DecimalAmount
    fee_asset_id: str
    fee_rate: AtomicAmount | None = Field(description="Gas price (gas networks) or sat/vB (UTXO networks).")
    from_: TransactionSide = Field(alias="from")
    to: TransactionSide
    fee_payer: TransactionSide | None = Field(description="The wallet paying the fee when it is not `from` (a "
                                              "token transfer's native coin wallet), with its absolute balance.")
    destination_type: Literal["internal", "whitelisted", "one_time"] | None
    tx_hash: str | None
    external_link: str | None = Field(description="The transaction on the network's block explorer.")
    block_height: int | None
    block_time: str | None = Field(description="RFC 3339 time of the block that holds the transaction.")
    confirmations: int | None
    required_confirmations: int | None
    balance_version: int | None
    seq: int | None = Field(description="Change-log position of the transaction's last change.")
    idempotency_key: str | None
    attempt_key: str | None
    attempt_number: int | None
    retry_of: uuid.UUID | None = Field(description="The failed attempt this one retries (X-Attempt-Key).")
    utxo_intent_key: str | None
    created_by: uuid.UUID | None
    error_code: str | None
    error_message: str | None
    expires_at: str | None = Field(description="While live: when a withdrawal not yet signing expires.")
    aml_screening: AmlScreening | None = Field(None, description="The transfer's AML screening (docs/aml.md); null "
                                               "when the workspace does not screen.")
    awaiting_gas: bool = Field(False, description="A token withdrawal of a vault with autofuel on, accepted "
                               "without the gas for its fee: it waits (in approved) for the gas station's refuel "
                               "of its address (docs/gas-station.md).")
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


class TransactionListQuery(QueryParams):
    status: list[TransactionStatus] = Field(default_factory=list, max_length=len(statuses.ALL),
                                            description="Only these statuses (repeat the parameter for several).")
    wallet_id: uuid.UUID | None = Field(None, description="Transactions out of or into this wallet.")
    vault_id: uuid.UUID | None = Field(None, description="Transactions out of or into a wallet of this vault.")
    direction: Literal["incoming", "outgoing"] | None = Field(
        None, description="incoming: deposits; outgoing: withdrawals (internal transfers included).")
    created_from: AwareDatetime | None = Field(None, description="Created at or after (RFC 3339).")
    created_to: AwareDatetime | None = Field(None, description="Created before (RFC 3339).")
    limit: int = Field(transactions.DEFAULT_PAGE, ge=1, le=transactions.MAX_PAGE,
                       description=f"Page size, 1 to {transactions.MAX_PAGE}.")
    offset: int = Field(0, ge=0, le=2**63 - 1)


class TransactionPage(Resource):
    items: list[Transaction] = Field(description="Newest first.")
    total: int
    limit: int
    offset: int
