from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeviceConfirm")


@_attrs_define
class DeviceConfirm:
    """
    Attributes:
        fingerprint (str): The fingerprint as shown on the device; spaces and case are ignored.
    """

    fingerprint: str

    def to_dict(self) -> dict[str, Any]:
        fingerprint = self.fingerprint

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fingerprint": fingerprint,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        fingerprint = d.pop("fingerprint")

        device_confirm = cls(
            fingerprint=fingerprint,
        )

        return device_confirm
