from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.round_1_package import Round1Package


T = TypeVar("T", bound="Round1Submission")


@_attrs_define
class Round1Submission:
    """
    Attributes:
        package (Round1Package): The co-signer's round-1 broadcast (threshold.dkg.Round1Package).
        transport_public_key (str): The co-signer's X25519 key for the round-2 Boxes (hex); unusable: 400
            INVALID_TRANSPORT_KEY.
    """

    package: Round1Package
    transport_public_key: str

    def to_dict(self) -> dict[str, Any]:
        package = self.package.to_dict()

        transport_public_key = self.transport_public_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "package": package,
                "transport_public_key": transport_public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.round_1_package import Round1Package  # noqa: PLC0415

        d = dict(src_dict)
        package = Round1Package.from_dict(d.pop("package"))

        transport_public_key = d.pop("transport_public_key")

        round_1_submission = cls(
            package=package,
            transport_public_key=transport_public_key,
        )

        return round_1_submission
