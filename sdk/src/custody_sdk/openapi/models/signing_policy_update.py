from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SigningPolicyUpdate")


@_attrs_define
class SigningPolicyUpdate:
    """
    Attributes:
        cosigner_required (bool): Whether every signature needs the co-signer's share.
    """

    cosigner_required: bool

    def to_dict(self) -> dict[str, Any]:
        cosigner_required = self.cosigner_required

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cosigner_required": cosigner_required,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cosigner_required = d.pop("cosigner_required")

        signing_policy_update = cls(
            cosigner_required=cosigner_required,
        )

        return signing_policy_update
