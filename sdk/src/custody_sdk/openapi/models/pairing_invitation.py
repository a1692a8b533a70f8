from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.pairing_invitation_kind import (
    PairingInvitationKind,
    check_pairing_invitation_kind,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PairingInvitation")


@_attrs_define
class PairingInvitation:
    """
    Attributes:
        expires_at (int): Expiry of the pairing token in unix milliseconds (an integer).
        pairing_token (str): Valid 5 minutes (an owner enrollment secret: 72 hours) and for one registration.
        qr_data (str): JSON for the QR code: v, base_url, tenant_uuid, pairing_token.
        kind (PairingInvitationKind | Unset): device: the owner confirms the device it registers; owner_enrollment: the
            owner's own device, which the operator confirms (custody owner confirm-device). Default: 'device'.
    """

    expires_at: int
    pairing_token: str
    qr_data: str
    kind: PairingInvitationKind | Unset = "device"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at

        pairing_token = self.pairing_token

        qr_data = self.qr_data

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expires_at": expires_at,
                "pairing_token": pairing_token,
                "qr_data": qr_data,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = d.pop("expires_at")

        pairing_token = d.pop("pairing_token")

        qr_data = d.pop("qr_data")

        _kind = d.pop("kind", UNSET)
        kind: PairingInvitationKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = check_pairing_invitation_kind(_kind)

        pairing_invitation = cls(
            expires_at=expires_at,
            pairing_token=pairing_token,
            qr_data=qr_data,
            kind=kind,
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
