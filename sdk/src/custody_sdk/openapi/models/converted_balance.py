from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ConvertedBalance")


@_attrs_define
class ConvertedBalance:
    """The earlier form's fiat value of the balance.

    Attributes:
        formatted_value (str):
        relevant_on (str):
        symbol (str):
    """

    formatted_value: str
    relevant_on: str
    symbol: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        formatted_value = self.formatted_value

        relevant_on = self.relevant_on

        symbol = self.symbol

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "formatted_value": formatted_value,
                "relevant_on": relevant_on,
                "symbol": symbol,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        formatted_value = d.pop("formatted_value")

        relevant_on = d.pop("relevant_on")

        symbol = d.pop("symbol")

        converted_balance = cls(
            formatted_value=formatted_value,
            relevant_on=relevant_on,
            symbol=symbol,
        )

        converted_balance.additional_properties = d
        return converted_balance

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
