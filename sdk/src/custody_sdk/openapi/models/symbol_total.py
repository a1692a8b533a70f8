from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SymbolTotal")


@_attrs_define
class SymbolTotal:
    """The earlier form of a symbol balance: one ``balance`` (the total).

    Attributes:
        symbol (str):
        icon_url (str):
        decimals (int):
        balance (str):
        balance_atomic (str):
    """

    symbol: str
    icon_url: str
    decimals: int
    balance: str
    balance_atomic: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        symbol = self.symbol

        icon_url = self.icon_url

        decimals = self.decimals

        balance = self.balance

        balance_atomic = self.balance_atomic

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "symbol": symbol,
                "icon_url": icon_url,
                "decimals": decimals,
                "balance": balance,
                "balance_atomic": balance_atomic,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        symbol = d.pop("symbol")

        icon_url = d.pop("icon_url")

        decimals = d.pop("decimals")

        balance = d.pop("balance")

        balance_atomic = d.pop("balance_atomic")

        symbol_total = cls(
            symbol=symbol,
            icon_url=icon_url,
            decimals=decimals,
            balance=balance,
            balance_atomic=balance_atomic,
        )

        symbol_total.additional_properties = d
        return symbol_total

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
