from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.round_1_package_sender import (
    Round1PackageSender,
    check_round_1_package_sender,
)

T = TypeVar("T", bound="Round1Package")


@_attrs_define
class Round1Package:
    """The co-signer's round-1 broadcast (threshold.dkg.Round1Package).

    Attributes:
        sender (Round1PackageSender): The co-signer's participant identifier.
        commitments (list[str]): The coefficient commitments (as many as the threshold).
        proof_r (str): R of the proof of knowledge (a point).
        proof_mu (str): mu of the proof of knowledge (a scalar).
    """

    sender: Round1PackageSender
    commitments: list[str]
    proof_r: str
    proof_mu: str

    def to_dict(self) -> dict[str, Any]:
        sender: int = self.sender

        commitments = self.commitments

        proof_r = self.proof_r

        proof_mu = self.proof_mu

        field_dict: dict[str, Any] = {}

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
        sender = check_round_1_package_sender(d.pop("sender"))

        commitments = cast(list[str], d.pop("commitments"))

        proof_r = d.pop("proof_r")

        proof_mu = d.pop("proof_mu")

        round_1_package = cls(
            sender=sender,
            commitments=commitments,
            proof_r=proof_r,
            proof_mu=proof_mu,
        )

        return round_1_package
