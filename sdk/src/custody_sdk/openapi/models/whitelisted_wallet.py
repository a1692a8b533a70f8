from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WhitelistedWallet")


@_attrs_define
class WhitelistedWallet:
    """A registered counterparty address for one currency (target_whitelisted_asset_id).

    Attributes:
        id (UUID):
        workspace_id (UUID):
        name (str):
        currency_id (str):
        network_id (str):
        blockchain_name (str):
        address (str):
        created_by (None | UUID):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    workspace_id: UUID
    name: str
    currency_id: str
    network_id: str
    blockchain_name: str
    address: str
    created_by: None | UUID
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        name = self.name

        currency_id = self.currency_id

        network_id = self.network_id

        blockchain_name = self.blockchain_name

        address = self.address

        created_by: None | str
        if isinstance(self.created_by, UUID):
            created_by = str(self.created_by)
        else:
            created_by = self.created_by

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspace_id": workspace_id,
                "name": name,
                "currency_id": currency_id,
                "network_id": network_id,
                "blockchain_name": blockchain_name,
                "address": address,
                "created_by": created_by,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspace_id"))

        name = d.pop("name")

        currency_id = d.pop("currency_id")

        network_id = d.pop("network_id")

        blockchain_name = d.pop("blockchain_name")

        address = d.pop("address")

        def _parse_created_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                created_by_type_0 = UUID(data)

                return created_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        created_by = _parse_created_by(d.pop("created_by"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        whitelisted_wallet = cls(
            id=id,
            workspace_id=workspace_id,
            name=name,
            currency_id=currency_id,
            network_id=network_id,
            blockchain_name=blockchain_name,
            address=address,
            created_by=created_by,
            created_at=created_at,
            updated_at=updated_at,
        )

        whitelisted_wallet.additional_properties = d
        return whitelisted_wallet

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
