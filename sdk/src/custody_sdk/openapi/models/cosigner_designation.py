from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CosignerDesignation")


@_attrs_define
class CosignerDesignation:
    """
    Attributes:
        workspace_id (UUID):
        user_id (UUID): The API user, or the person whose device it is.
        device_id (None | UUID): The paired device; null for an API user (a headless co-signer).
        designated_by (None | UUID): The owner who designated it; null: the operator (custody bootstrap).
        designated_at (datetime.datetime):
    """

    workspace_id: UUID
    user_id: UUID
    device_id: None | UUID
    designated_by: None | UUID
    designated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspace_id = str(self.workspace_id)

        user_id = str(self.user_id)

        device_id: None | str
        if isinstance(self.device_id, UUID):
            device_id = str(self.device_id)
        else:
            device_id = self.device_id

        designated_by: None | str
        if isinstance(self.designated_by, UUID):
            designated_by = str(self.designated_by)
        else:
            designated_by = self.designated_by

        designated_at = self.designated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspace_id": workspace_id,
                "user_id": user_id,
                "device_id": device_id,
                "designated_by": designated_by,
                "designated_at": designated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        workspace_id = UUID(d.pop("workspace_id"))

        user_id = UUID(d.pop("user_id"))

        def _parse_device_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                device_id_type_0 = UUID(data)

                return device_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        device_id = _parse_device_id(d.pop("device_id"))

        def _parse_designated_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                designated_by_type_0 = UUID(data)

                return designated_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        designated_by = _parse_designated_by(d.pop("designated_by"))

        designated_at = datetime.datetime.fromisoformat(d.pop("designated_at"))

        cosigner_designation = cls(
            workspace_id=workspace_id,
            user_id=user_id,
            device_id=device_id,
            designated_by=designated_by,
            designated_at=designated_at,
        )

        cosigner_designation.additional_properties = d
        return cosigner_designation

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
