from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MatchedRisk")


@_attrs_define
class MatchedRisk:
    """
    Attributes:
        category (str):
        category_label (str):
        exposure_percent (float): Share of the counterparty's funds from this category, 0-100.
    """

    category: str
    category_label: str
    exposure_percent: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        category = self.category

        category_label = self.category_label

        exposure_percent = self.exposure_percent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "category": category,
                "category_label": category_label,
                "exposure_percent": exposure_percent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category")

        category_label = d.pop("category_label")

        exposure_percent = d.pop("exposure_percent")

        matched_risk = cls(
            category=category,
            category_label=category_label,
            exposure_percent=exposure_percent,
        )

        matched_risk.additional_properties = d
        return matched_risk

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
