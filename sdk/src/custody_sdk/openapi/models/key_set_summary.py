from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.key_set_summary_status import (
    KeySetSummaryStatus,
    check_key_set_summary_status,
)

T = TypeVar("T", bound="KeySetSummary")


@_attrs_define
class KeySetSummary:
    """
    Attributes:
        id (UUID):
        status (KeySetSummaryStatus): The distributed key generation's progress; wallets need `ready`.
        scheme (str): Threshold scheme, e.g. FROST-ED25519-SHA512-v1.
        group_public_key (None | str): Hex of the group public key once ready (32 bytes for Ed25519, 33 bytes SEC1
            compressed for secp256k1).
    """

    id: UUID
    status: KeySetSummaryStatus
    scheme: str
    group_public_key: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        status: str = self.status

        scheme = self.scheme

        group_public_key: None | str
        group_public_key = self.group_public_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "scheme": scheme,
                "group_public_key": group_public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = check_key_set_summary_status(d.pop("status"))

        scheme = d.pop("scheme")

        def _parse_group_public_key(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        group_public_key = _parse_group_public_key(d.pop("group_public_key"))

        key_set_summary = cls(
            id=id,
            status=status,
            scheme=scheme,
            group_public_key=group_public_key,
        )

        key_set_summary.additional_properties = d
        return key_set_summary

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
