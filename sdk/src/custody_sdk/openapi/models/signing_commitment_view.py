from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SigningCommitmentView")


@_attrs_define
class SigningCommitmentView:
    """
    Attributes:
        participant (int):
        hiding (str): Hex of the hiding commitment.
        binding (str): Hex of the binding commitment.
    """

    participant: int
    hiding: str
    binding: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        participant = self.participant

        hiding = self.hiding

        binding = self.binding

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "participant": participant,
                "hiding": hiding,
                "binding": binding,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        participant = d.pop("participant")

        hiding = d.pop("hiding")

        binding = d.pop("binding")

        signing_commitment_view = cls(
            participant=participant,
            hiding=hiding,
            binding=binding,
        )

        signing_commitment_view.additional_properties = d
        return signing_commitment_view

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
