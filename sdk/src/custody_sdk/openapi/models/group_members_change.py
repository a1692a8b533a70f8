from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="GroupMembersChange")


@_attrs_define
class GroupMembersChange:
    """
    Attributes:
        user_uuids (list[UUID]):
    """

    user_uuids: list[UUID]

    def to_dict(self) -> dict[str, Any]:
        user_uuids = []
        for user_uuids_item_data in self.user_uuids:
            user_uuids_item = str(user_uuids_item_data)
            user_uuids.append(user_uuids_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_uuids": user_uuids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user_uuids = []
        _user_uuids = d.pop("user_uuids")
        for user_uuids_item_data in _user_uuids:
            user_uuids_item = UUID(user_uuids_item_data)

            user_uuids.append(user_uuids_item)

        group_members_change = cls(
            user_uuids=user_uuids,
        )

        return group_members_change
