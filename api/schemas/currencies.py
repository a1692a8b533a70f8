"""Currency requests and responses (/api/v1/currencies); :class:`Currency` is the CurrencyView
every answer that names a currency embeds."""

from __future__ import annotations

from pydantic import Field, RootModel

from api.schemas.common import QueryParams, Resource
from api.schemas.workspaces import NetworkType
from domain.currencies import Currency as RegistryCurrency


class CurrencyListQuery(QueryParams):
    testnet: bool | None = Field(None, description="Left out: the workspace's own network type. true selects "
                                                   "testnet currencies, false mainnet ones; a workspace sees only its "
                                                   "own network type (the other is 400 CURRENCY_NETWORK_MISMATCH).")


class Currency(Resource):
    """CurrencyView, plus the network it lives on and its token contract."""

    id: str
    symbol: str
    descriptor: str
    decimals: int = Field(ge=0)
    blockchain_name: str
    blockchain_icon_url: str
    icon_url: str
    network_id: str
    network_type: NetworkType
    contract: str | None = Field(description="The token contract; null for the network's native coin.")

    @classmethod
    def of(cls, currency: RegistryCurrency) -> "Currency":
        return cls(
            id=currency.id, symbol=currency.symbol, descriptor=currency.descriptor, decimals=currency.decimals,
            blockchain_name=currency.network.blockchain_name,
            blockchain_icon_url=currency.network.blockchain_icon_url, icon_url=currency.icon_url,
            network_id=currency.network.id, network_type=currency.network_type,
            contract=currency.contract,
        )


class CurrencyList(RootModel[list[Currency]]):
    """A top-level array of currencies."""

    @classmethod
    def of(cls, currencies: list[RegistryCurrency]) -> "CurrencyList":
        return cls([Currency.of(c) for c in currencies])
