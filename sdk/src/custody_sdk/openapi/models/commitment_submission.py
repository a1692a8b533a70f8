from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CommitmentSubmission")


@_attrs_define
class CommitmentSubmission:
    """
    Attributes:
        hiding (str): The hiding nonce commitment (a point); malformed, off-curve or small-order: 400
            INVALID_COMMITMENT.
        binding (str): The binding nonce commitment (a point); same rules.
    """

    hiding: str
    binding: str

    def to_dict(self) -> dict[str, Any]:
        hiding = self.hiding

        binding = self.binding

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "hiding": hiding,
                "binding": binding,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hiding = d.pop("hiding")

        binding = d.pop("binding")

        commitment_submission = cls(
            hiding=hiding,
            binding=binding,
        )

        return commitment_submission
