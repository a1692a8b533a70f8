from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Round2Delivery")


@_attrs_define
class Round2Delivery:
    """
    Attributes:
        sender (int):
        ciphertext (str): Base64 NaCl Box from the sender to the co-signer's transport key.
    """

    sender: int
    ciphertext: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sender = self.sender

        ciphertext = self.ciphertext

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sender": sender,
                "ciphertext": ciphertext,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sender = d.pop("sender")

        ciphertext = d.pop("ciphertext")

        round_2_delivery = cls(
            sender=sender,
            ciphertext=ciphertext,
        )

        round_2_delivery.additional_properties = d
        return round_2_delivery

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
