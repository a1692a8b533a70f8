from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SymbolBalance")


@_attrs_define
class SymbolBalance:
    """
    Attributes:
        available (str):
        available_atomic (str):
        frozen (str):
        frozen_atomic (str):
        held (str):
        held_atomic (str):
        total (str):
        total_atomic (str):
        symbol (str):
        icon_url (str):
        decimals (int):
    """

    available: str
    available_atomic: str
    frozen: str
    frozen_atomic: str
    held: str
    held_atomic: str
    total: str
    total_atomic: str
    symbol: str
    icon_url: str
    decimals: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        available = self.available

        available_atomic = self.available_atomic

        frozen = self.frozen

        frozen_atomic = self.frozen_atomic

        held = self.held

        held_atomic = self.held_atomic

        total = self.total

        total_atomic = self.total_atomic

        symbol = self.symbol

        icon_url = self.icon_url

        decimals = self.decimals

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "available": available,
                "available_atomic": available_atomic,
                "frozen": frozen,
                "frozen_atomic": frozen_atomic,
                "held": held,
                "held_atomic": held_atomic,
                "total": total,
                "total_atomic": total_atomic,
                "symbol": symbol,
                "icon_url": icon_url,
                "decimals": decimals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        available = d.pop("available")

        available_atomic = d.pop("available_atomic")

        frozen = d.pop("frozen")

        frozen_atomic = d.pop("frozen_atomic")

        held = d.pop("held")

        held_atomic = d.pop("held_atomic")

        total = d.pop("total")

        total_atomic = d.pop("total_atomic")

        symbol = d.pop("symbol")

        icon_url = d.pop("icon_url")

        decimals = d.pop("decimals")

        symbol_balance = cls(
            available=available,
            available_atomic=available_atomic,
            frozen=frozen,
            frozen_atomic=frozen_atomic,
            held=held,
            held_atomic=held_atomic,
            total=total,
            total_atomic=total_atomic,
            symbol=symbol,
            icon_url=icon_url,
            decimals=decimals,
        )

        symbol_balance.additional_properties = d
        return symbol_balance

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
