from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DkgComplaint")


@_attrs_define
class DkgComplaint:
    """
    Attributes:
        participant (int): The participant caught cheating (not the co-signer itself).
        reason (str): What the co-signer's checks found, 1 to 500 characters.
    """

    participant: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        participant = self.participant

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "participant": participant,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        participant = d.pop("participant")

        reason = d.pop("reason")

        dkg_complaint = cls(
            participant=participant,
            reason=reason,
        )

        return dkg_complaint
