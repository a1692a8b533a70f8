from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Balances")


@_attrs_define
class Balances:
    """A wallet's balance with the block height it reflects.

    Attributes:
        available (str):
        available_atomic (str):
        frozen (str):
        frozen_atomic (str):
        held (str):
        held_atomic (str):
        total (str):
        total_atomic (str):
        block_height (int | None): Height of the newest block the balance includes.
    """

    available: str
    available_atomic: str
    frozen: str
    frozen_atomic: str
    held: str
    held_atomic: str
    total: str
    total_atomic: str
    block_height: int | None
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

        block_height: int | None
        block_height = self.block_height

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
                "block_height": block_height,
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

        def _parse_block_height(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        block_height = _parse_block_height(d.pop("block_height"))

        balances = cls(
            available=available,
            available_atomic=available_atomic,
            frozen=frozen,
            frozen_atomic=frozen_atomic,
            held=held,
            held_atomic=held_atomic,
            total=total,
            total_atomic=total_atomic,
            block_height=block_height,
        )

        balances.additional_properties = d
        return balances

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
