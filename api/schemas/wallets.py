"""Wallet requests and the wallet asset (AssetView) in its current and earlier balance forms."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.balances import Balances, ConvertedBalances
from api.schemas.common import AtomicAmount, DecimalAmount, QueryParams, RequestBody, Resource, Timestamp
from api.schemas.currencies import Currency
from domain import balances
from domain.currencies import format_amount
from domain.prices import format_fiat
from domain.wallets import WalletView

CurrencyId = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$", description="A currency id of "
                   "GET /currencies.")


class WalletCreate(RequestBody):
    currency_id: str = CurrencyId
    vault_id: uuid.UUID


class Address(Resource):
    address: str
    network_id: str
    blockchain_name: str
    type: Literal["receive"]
    created_at: Timestamp


class ConvertedBalance(Resource):
    """The earlier form's fiat value of the balance."""

    formatted_value: DecimalAmount
    relevant_on: str
    symbol: str


class Asset(Resource):
    """A wallet: one currency in one vault, its receiving address and its balance."""

    id: uuid.UUID
    vault_id: uuid.UUID
    workspace_id: uuid.UUID
    currency: Currency
    decimals: int
    status: str
    primary_address: Address
    created_at: Timestamp
    updated_at: Timestamp
    balances: Balances
    converted_balances: ConvertedBalances | None = Field(description="Fiat value; null without a price.")
    balance: DecimalAmount = Field(description="Earlier form: the total balance.")
    balance_atomic: AtomicAmount
    converted_balance: ConvertedBalance | None

    @classmethod
    def of(cls, view: WalletView) -> "Asset":
        wallet, currency, address = view.wallet, view.currency, view.address
        parts = balances.parts_of(wallet)
        converted = balances.convert(parts, currency)
        converted_balances = ConvertedBalances.of(converted) if converted else None
        return cls(
            id=wallet.id, vault_id=wallet.vault_id, workspace_id=wallet.workspace_id,
            currency=Currency.of(currency), decimals=currency.decimals, status=wallet.status,
            primary_address=Address(address=address.address, network_id=address.network,
                                    blockchain_name=currency.network.blockchain_name, type="receive",
                                    created_at=address.created_at),
            created_at=wallet.created_at, updated_at=wallet.updated_at,
            balances=Balances.of(parts, currency.decimals), converted_balances=converted_balances,
            balance=format_amount(parts.total, currency.decimals), balance_atomic=str(parts.total),
            converted_balance=None if converted_balances is None else ConvertedBalance(
                formatted_value=format_fiat(converted.total), relevant_on=converted_balances.relevant_on,  # type: ignore[union-attr]  # converted when the balances are
                symbol=converted_balances.symbol),
        )


class AssetList(Resource):
    assets: list[Asset]
    offset: int
    total: int


class WalletCreated(Resource):
    """The wallets the request opened: the asked currency's, and the native coin's when needed."""

    assets: list[Asset]


class AssetListQuery(QueryParams):
    limit: int = Field(100, ge=1, le=1000, description="Page size, 1 to 1000.")
    offset: int = Field(0, ge=0, le=2**63 - 1)
    vaultID: uuid.UUID | None = Field(None, description="Only the wallets of this vault.")
