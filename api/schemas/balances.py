"""Balance objects: the four parts of a balance in both units, and their fiat value."""

from __future__ import annotations

import uuid

from pydantic import Field, RootModel

from api.schemas.common import AtomicAmount, DecimalAmount, QueryParams, Resource, Timestamp
from api.schemas.currencies import Currency
from domain import balances
from domain.balances import BalanceParts, Converted


class BalanceAmounts(Resource):
    """available, frozen, held and total, each in whole units and in atomic units (strings).

    ``frozen`` is the frozen part, ``held`` the sum of outgoing transactions in flight;
    ``available`` is already reduced by both.
    """

    available: DecimalAmount
    available_atomic: AtomicAmount
    frozen: DecimalAmount
    frozen_atomic: AtomicAmount
    held: DecimalAmount
    held_atomic: AtomicAmount
    total: DecimalAmount
    total_atomic: AtomicAmount

    @classmethod
    def of(cls, parts: BalanceParts, decimals: int) -> "BalanceAmounts":
        return cls(**balances.amounts(parts, decimals))


class Balances(BalanceAmounts):
    """A wallet's balance with the block height it reflects."""

    block_height: int | None = Field(description="Height of the newest block the balance includes.")

    @classmethod
    def of(cls, parts: BalanceParts, decimals: int) -> "Balances":
        return cls(**balances.balances_object(parts, decimals))


class ConvertedBalances(Resource):
    """The fiat value of a balance (from the price table, as of ``relevant_on``)."""

    available: DecimalAmount
    frozen: DecimalAmount
    held: DecimalAmount
    total: DecimalAmount
    relevant_on: str = Field(description="RFC 3339 time of the prices used.")
    symbol: str = Field(description="Fiat symbol, e.g. USD.")

    @classmethod
    def of(cls, converted: Converted) -> "ConvertedBalances":
        return cls(**converted.to_dict())


class SymbolBalance(BalanceAmounts):
    symbol: str
    icon_url: str
    decimals: int


class SymbolTotal(Resource):
    """The earlier form of a symbol balance: one ``balance`` (the total)."""

    symbol: str
    icon_url: str
    decimals: int
    balance: DecimalAmount
    balance_atomic: AtomicAmount


class WorkspaceBalances(Resource):
    converted_balances: ConvertedBalances
    symbol_balances: list[SymbolBalance]


class WalletBalance(Resource):
    wallet_id: uuid.UUID
    vault_id: uuid.UUID
    currency_id: str
    network_id: str
    address: str
    balance_version: int
    balance: BalanceAmounts
    block_height: int | None


class CurrencyBalance(BalanceAmounts):
    currency: Currency


class BalanceSnapshotQuery(QueryParams):
    wallets: bool = Field(False, description="true adds wallet_balances: per wallet, its address, balance and "
                                             "balance_version, read in the same state (one page of them).")
    wallets_limit: int = Field(balances.MAX_WALLETS_PAGE, ge=1, le=balances.MAX_WALLETS_PAGE,
                               description=f"Wallets per page, 1 to {balances.MAX_WALLETS_PAGE} (with wallets=true).")
    wallets_after: uuid.UUID | None = Field(None, description="Continue after this wallet: the previous page's "
                                                              "next_wallets_after.")


class BalanceSnapshot(Resource):
    """Balances per currency as of ``cursor``, a position of the workspace's change log."""

    currency_balances: list[CurrencyBalance]
    cursor: int = Field(description="Change-log position the snapshot includes; continue the log from it.")
    min_cursor: int
    snapshot_at: Timestamp
    wallet_balances: list[WalletBalance] | None = Field(None, description="Only with wallets=true: one page, in "
                                                                         "wallet creation order.")
    next_wallets_after: uuid.UUID | None = Field(None, description="Set when more wallets follow: pass it as "
                                                                   "wallets_after. Seed each wallet from its page and "
                                                                   "continue the change log from the first page's "
                                                                   "cursor.")


class SymbolTotals(RootModel[list[SymbolTotal]]):
    """A top-level array of symbol balances (earlier form)."""
