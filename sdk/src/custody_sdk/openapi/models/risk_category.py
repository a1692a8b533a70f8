from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="RiskCategory")


@_attrs_define
class RiskCategory:
    """
    Attributes:
        category (str):
        label (str):
        weight (float | str): The score a 100 % exposure to the category gives, 0 to 100.
    """

    category: str
    label: str
    weight: float | str

    def to_dict(self) -> dict[str, Any]:
        category = self.category

        label = self.label

        weight: float | str
        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "category": category,
                "label": label,
                "weight": weight,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category")

        label = d.pop("label")

        def _parse_weight(data: object) -> float | str:
            return cast(float | str, data)

        weight = _parse_weight(d.pop("weight"))

        risk_category = cls(
            category=category,
            label=label,
            weight=weight,
        )

        return risk_category
