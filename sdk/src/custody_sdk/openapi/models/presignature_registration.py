from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PresignatureRegistration")


@_attrs_define
class PresignatureRegistration:
    """
    Attributes:
        big_r (str): Hex (33 bytes, SEC1) of the R of the presignature the co-signer stored.
    """

    big_r: str

    def to_dict(self) -> dict[str, Any]:
        big_r = self.big_r

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "big_r": big_r,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        big_r = d.pop("big_r")

        presignature_registration = cls(
            big_r=big_r,
        )

        return presignature_registration
