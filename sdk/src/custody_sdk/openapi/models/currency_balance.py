from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.currency import Currency


T = TypeVar("T", bound="CurrencyBalance")


@_attrs_define
class CurrencyBalance:
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
        currency (Currency): CurrencyView, plus the network it lives on and its token contract.
    """

    available: str
    available_atomic: str
    frozen: str
    frozen_atomic: str
    held: str
    held_atomic: str
    total: str
    total_atomic: str
    currency: Currency
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

        currency = self.currency.to_dict()

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
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.currency import Currency  # noqa: PLC0415

        d = dict(src_dict)
        available = d.pop("available")

        available_atomic = d.pop("available_atomic")

        frozen = d.pop("frozen")

        frozen_atomic = d.pop("frozen_atomic")

        held = d.pop("held")

        held_atomic = d.pop("held_atomic")

        total = d.pop("total")

        total_atomic = d.pop("total_atomic")

        currency = Currency.from_dict(d.pop("currency"))

        currency_balance = cls(
            available=available,
            available_atomic=available_atomic,
            frozen=frozen,
            frozen_atomic=frozen_atomic,
            held=held,
            held_atomic=held_atomic,
            total=total,
            total_atomic=total_atomic,
            currency=currency,
        )

        currency_balance.additional_properties = d
        return currency_balance

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
