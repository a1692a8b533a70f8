from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ThresholdUpdate")


@_attrs_define
class ThresholdUpdate:
    """
    Attributes:
        threshold (int): Administrators who confirm in ADMIN_QUORUM mode.
    """

    threshold: int

    def to_dict(self) -> dict[str, Any]:
        threshold = self.threshold

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "threshold": threshold,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        threshold = d.pop("threshold")

        threshold_update = cls(
            threshold=threshold,
        )

        return threshold_update
