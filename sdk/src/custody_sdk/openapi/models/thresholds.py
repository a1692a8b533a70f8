from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Thresholds")


@_attrs_define
class Thresholds:
    """
    Attributes:
        medium (float | str): 0 to 100, at most two decimals.
        high (float | str): 0 to 100, at most two decimals.
        severe (float | str): 0 to 100, at most two decimals.
    """

    medium: float | str
    high: float | str
    severe: float | str

    def to_dict(self) -> dict[str, Any]:
        medium: float | str
        medium = self.medium

        high: float | str
        high = self.high

        severe: float | str
        severe = self.severe

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "medium": medium,
                "high": high,
                "severe": severe,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_medium(data: object) -> float | str:
            return cast(float | str, data)

        medium = _parse_medium(d.pop("medium"))

        def _parse_high(data: object) -> float | str:
            return cast(float | str, data)

        high = _parse_high(d.pop("high"))

        def _parse_severe(data: object) -> float | str:
            return cast(float | str, data)

        severe = _parse_severe(d.pop("severe"))

        thresholds = cls(
            medium=medium,
            high=high,
            severe=severe,
        )

        return thresholds
