from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TrustedAddress")


@_attrs_define
class TrustedAddress:
    """
    Attributes:
        network_id (str):
        address (str):
        note (None | str | Unset):
    """

    network_id: str
    address: str
    note: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        network_id = self.network_id

        address = self.address

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "network_id": network_id,
                "address": address,
            }
        )
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        network_id = d.pop("network_id")

        address = d.pop("address")

        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))

        trusted_address = cls(
            network_id=network_id,
            address=address,
            note=note,
        )

        return trusted_address
