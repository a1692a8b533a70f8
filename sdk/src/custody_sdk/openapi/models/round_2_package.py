from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.round_2_package_recipient import (
    Round2PackageRecipient,
    check_round_2_package_recipient,
)

T = TypeVar("T", bound="Round2Package")


@_attrs_define
class Round2Package:
    """
    Attributes:
        recipient (Round2PackageRecipient): The participant the share is for.
        ciphertext (str): Base64 of the NaCl Box (nonce included) to the recipient's transport key.
    """

    recipient: Round2PackageRecipient
    ciphertext: str

    def to_dict(self) -> dict[str, Any]:
        recipient: int = self.recipient

        ciphertext = self.ciphertext

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recipient": recipient,
                "ciphertext": ciphertext,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        recipient = check_round_2_package_recipient(d.pop("recipient"))

        ciphertext = d.pop("ciphertext")

        round_2_package = cls(
            recipient=recipient,
            ciphertext=ciphertext,
        )

        return round_2_package
