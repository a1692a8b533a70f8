from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.device_status import DeviceStatus, check_device_status

T = TypeVar("T", bound="Device")


@_attrs_define
class Device:
    """
    Attributes:
        device_id (UUID):
        workspace_id (UUID):
        user_id (UUID): The user the device acts for.
        name (str):
        fingerprint (str): Eight groups of four hex characters: the first 16 bytes of SHA-256 of the public key.
        status (DeviceStatus):
        created_at (datetime.datetime):
        confirmed_at (datetime.datetime | None):
    """

    device_id: UUID
    workspace_id: UUID
    user_id: UUID
    name: str
    fingerprint: str
    status: DeviceStatus
    created_at: datetime.datetime
    confirmed_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        device_id = str(self.device_id)

        workspace_id = str(self.workspace_id)

        user_id = str(self.user_id)

        name = self.name

        fingerprint = self.fingerprint

        status: str = self.status

        created_at = self.created_at.isoformat()

        confirmed_at: None | str
        if isinstance(self.confirmed_at, datetime.datetime):
            confirmed_at = self.confirmed_at.isoformat()
        else:
            confirmed_at = self.confirmed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "device_id": device_id,
                "workspace_id": workspace_id,
                "user_id": user_id,
                "name": name,
                "fingerprint": fingerprint,
                "status": status,
                "created_at": created_at,
                "confirmed_at": confirmed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        device_id = UUID(d.pop("device_id"))

        workspace_id = UUID(d.pop("workspace_id"))

        user_id = UUID(d.pop("user_id"))

        name = d.pop("name")

        fingerprint = d.pop("fingerprint")

        status = check_device_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_confirmed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                confirmed_at_type_0 = datetime.datetime.fromisoformat(data)

                return confirmed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        confirmed_at = _parse_confirmed_at(d.pop("confirmed_at"))

        device = cls(
            device_id=device_id,
            workspace_id=workspace_id,
            user_id=user_id,
            name=name,
            fingerprint=fingerprint,
            status=status,
            created_at=created_at,
            confirmed_at=confirmed_at,
        )

        device.additional_properties = d
        return device

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
