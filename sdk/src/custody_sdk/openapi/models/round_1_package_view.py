from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Round1PackageView")


@_attrs_define
class Round1PackageView:
    """
    Attributes:
        sender (int):
        commitments (list[str]):
        proof_r (str):
        proof_mu (str):
    """

    sender: int
    commitments: list[str]
    proof_r: str
    proof_mu: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sender = self.sender

        commitments = self.commitments

        proof_r = self.proof_r

        proof_mu = self.proof_mu

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sender": sender,
                "commitments": commitments,
                "proof_r": proof_r,
                "proof_mu": proof_mu,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sender = d.pop("sender")

        commitments = cast(list[str], d.pop("commitments"))

        proof_r = d.pop("proof_r")

        proof_mu = d.pop("proof_mu")

        round_1_package_view = cls(
            sender=sender,
            commitments=commitments,
            proof_r=proof_r,
            proof_mu=proof_mu,
        )

        round_1_package_view.additional_properties = d
        return round_1_package_view

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
