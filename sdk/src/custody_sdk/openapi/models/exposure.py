from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Exposure")


@_attrs_define
class Exposure:
    """
    Attributes:
        category (str):
        exposure_percent (float | str): 0 to 100, at most two decimals.
    """

    category: str
    exposure_percent: float | str

    def to_dict(self) -> dict[str, Any]:
        category = self.category

        exposure_percent: float | str
        exposure_percent = self.exposure_percent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "category": category,
                "exposure_percent": exposure_percent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        category = d.pop("category")

        def _parse_exposure_percent(data: object) -> float | str:
            return cast(float | str, data)

        exposure_percent = _parse_exposure_percent(d.pop("exposure_percent"))

        exposure = cls(
            category=category,
            exposure_percent=exposure_percent,
        )

        return exposure
