from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Group")


@_attrs_define
class Group:
    """
    Attributes:
        group_uuid (UUID):
        tenant_uuid (UUID):
        name (str):
        threshold (int):
        member_uuids (list[UUID]):
        active_member_uuids (list[UUID]): The members counted in group mode: active people whose role can use the mobile
            app.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    group_uuid: UUID
    tenant_uuid: UUID
    name: str
    threshold: int
    member_uuids: list[UUID]
    active_member_uuids: list[UUID]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        group_uuid = str(self.group_uuid)

        tenant_uuid = str(self.tenant_uuid)

        name = self.name

        threshold = self.threshold

        member_uuids = []
        for member_uuids_item_data in self.member_uuids:
            member_uuids_item = str(member_uuids_item_data)
            member_uuids.append(member_uuids_item)

        active_member_uuids = []
        for active_member_uuids_item_data in self.active_member_uuids:
            active_member_uuids_item = str(active_member_uuids_item_data)
            active_member_uuids.append(active_member_uuids_item)

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "group_uuid": group_uuid,
                "tenant_uuid": tenant_uuid,
                "name": name,
                "threshold": threshold,
                "member_uuids": member_uuids,
                "active_member_uuids": active_member_uuids,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        group_uuid = UUID(d.pop("group_uuid"))

        tenant_uuid = UUID(d.pop("tenant_uuid"))

        name = d.pop("name")

        threshold = d.pop("threshold")

        member_uuids = []
        _member_uuids = d.pop("member_uuids")
        for member_uuids_item_data in _member_uuids:
            member_uuids_item = UUID(member_uuids_item_data)

            member_uuids.append(member_uuids_item)

        active_member_uuids = []
        _active_member_uuids = d.pop("active_member_uuids")
        for active_member_uuids_item_data in _active_member_uuids:
            active_member_uuids_item = UUID(active_member_uuids_item_data)

            active_member_uuids.append(active_member_uuids_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        group = cls(
            group_uuid=group_uuid,
            tenant_uuid=tenant_uuid,
            name=name,
            threshold=threshold,
            member_uuids=member_uuids,
            active_member_uuids=active_member_uuids,
            created_at=created_at,
            updated_at=updated_at,
        )

        group.additional_properties = d
        return group

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
