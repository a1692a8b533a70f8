from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="QuorumGroup")


@_attrs_define
class QuorumGroup:
    """
    Attributes:
        group_uuid (UUID):
        name (str):
        threshold (int):
        member_uuids (list[UUID]):
        active_member_uuids (list[UUID]):
    """

    group_uuid: UUID
    name: str
    threshold: int
    member_uuids: list[UUID]
    active_member_uuids: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        group_uuid = str(self.group_uuid)

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "group_uuid": group_uuid,
                "name": name,
                "threshold": threshold,
                "member_uuids": member_uuids,
                "active_member_uuids": active_member_uuids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        group_uuid = UUID(d.pop("group_uuid"))

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

        quorum_group = cls(
            group_uuid=group_uuid,
            name=name,
            threshold=threshold,
            member_uuids=member_uuids,
            active_member_uuids=active_member_uuids,
        )

        quorum_group.additional_properties = d
        return quorum_group

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
