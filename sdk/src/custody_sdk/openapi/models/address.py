from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.address_type import AddressType, check_address_type

T = TypeVar("T", bound="Address")


@_attrs_define
class Address:
    """
    Attributes:
        address (str):
        network_id (str):
        blockchain_name (str):
        type_ (AddressType):
        created_at (datetime.datetime):
    """

    address: str
    network_id: str
    blockchain_name: str
    type_: AddressType
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        address = self.address

        network_id = self.network_id

        blockchain_name = self.blockchain_name

        type_: str = self.type_

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "address": address,
                "network_id": network_id,
                "blockchain_name": blockchain_name,
                "type": type_,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        address = d.pop("address")

        network_id = d.pop("network_id")

        blockchain_name = d.pop("blockchain_name")

        type_ = check_address_type(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        address = cls(
            address=address,
            network_id=network_id,
            blockchain_name=blockchain_name,
            type_=type_,
            created_at=created_at,
        )

        address.additional_properties = d
        return address

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
