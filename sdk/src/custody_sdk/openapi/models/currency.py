from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.currency_network_type import (
    CurrencyNetworkType,
    check_currency_network_type,
)

T = TypeVar("T", bound="Currency")


@_attrs_define
class Currency:
    """CurrencyView, plus the network it lives on and its token contract.

    Attributes:
        id (str):
        symbol (str):
        descriptor (str):
        decimals (int):
        blockchain_name (str):
        blockchain_icon_url (str):
        icon_url (str):
        network_id (str):
        network_type (CurrencyNetworkType):
        contract (None | str): The token contract; null for the network's native coin.
    """

    id: str
    symbol: str
    descriptor: str
    decimals: int
    blockchain_name: str
    blockchain_icon_url: str
    icon_url: str
    network_id: str
    network_type: CurrencyNetworkType
    contract: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        symbol = self.symbol

        descriptor = self.descriptor

        decimals = self.decimals

        blockchain_name = self.blockchain_name

        blockchain_icon_url = self.blockchain_icon_url

        icon_url = self.icon_url

        network_id = self.network_id

        network_type: str = self.network_type

        contract: None | str
        contract = self.contract

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "symbol": symbol,
                "descriptor": descriptor,
                "decimals": decimals,
                "blockchain_name": blockchain_name,
                "blockchain_icon_url": blockchain_icon_url,
                "icon_url": icon_url,
                "network_id": network_id,
                "network_type": network_type,
                "contract": contract,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        symbol = d.pop("symbol")

        descriptor = d.pop("descriptor")

        decimals = d.pop("decimals")

        blockchain_name = d.pop("blockchain_name")

        blockchain_icon_url = d.pop("blockchain_icon_url")

        icon_url = d.pop("icon_url")

        network_id = d.pop("network_id")

        network_type = check_currency_network_type(d.pop("network_type"))

        def _parse_contract(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contract = _parse_contract(d.pop("contract"))

        currency = cls(
            id=id,
            symbol=symbol,
            descriptor=descriptor,
            decimals=decimals,
            blockchain_name=blockchain_name,
            blockchain_icon_url=blockchain_icon_url,
            icon_url=icon_url,
            network_id=network_id,
            network_type=network_type,
            contract=contract,
        )

        currency.additional_properties = d
        return currency

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
