from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PairingInvitation")


@_attrs_define
class PairingInvitation:
    """
    Attributes:
        expires_at (int): Expiry of the pairing token in unix milliseconds (an integer).
        pairing_token (str): Valid 5 minutes and for one registration.
        qr_data (str): JSON for the QR code: v, base_url, tenant_uuid, pairing_token.
    """

    expires_at: int
    pairing_token: str
    qr_data: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at

        pairing_token = self.pairing_token

        qr_data = self.qr_data

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expires_at": expires_at,
                "pairing_token": pairing_token,
                "qr_data": qr_data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = d.pop("expires_at")

        pairing_token = d.pop("pairing_token")

        qr_data = d.pop("qr_data")

        pairing_invitation = cls(
            expires_at=expires_at,
            pairing_token=pairing_token,
            qr_data=qr_data,
        )

        pairing_invitation.additional_properties = d
        return pairing_invitation

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
