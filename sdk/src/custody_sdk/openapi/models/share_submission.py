from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ShareSubmission")


@_attrs_define
class ShareSubmission:
    """
    Attributes:
        share (str): The signature share (a little-endian scalar below L; otherwise 400 INVALID_SCALAR). A share that
            does not verify is 400 INVALID_SIGNATURE_SHARE.
    """

    share: str

    def to_dict(self) -> dict[str, Any]:
        share = self.share

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "share": share,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        share = d.pop("share")

        share_submission = cls(
            share=share,
        )

        return share_submission
