from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GroupCreate")


@_attrs_define
class GroupCreate:
    """
    Attributes:
        name (str): Unique among the workspace's groups (case-insensitive), 1 to 100 characters.
        threshold (int | Unset): How many members confirm in group mode. Default: 1.
        user_uuids (list[UUID] | Unset): Initial members: members of the workspace.
    """

    name: str
    threshold: int | Unset = 1
    user_uuids: list[UUID] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        threshold = self.threshold

        user_uuids: list[str] | Unset = UNSET
        if not isinstance(self.user_uuids, Unset):
            user_uuids = []
            for user_uuids_item_data in self.user_uuids:
                user_uuids_item = str(user_uuids_item_data)
                user_uuids.append(user_uuids_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if user_uuids is not UNSET:
            field_dict["user_uuids"] = user_uuids

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        threshold = d.pop("threshold", UNSET)

        _user_uuids = d.pop("user_uuids", UNSET)
        user_uuids: list[UUID] | Unset = UNSET
        if _user_uuids is not UNSET:
            user_uuids = []
            for user_uuids_item_data in _user_uuids:
                user_uuids_item = UUID(user_uuids_item_data)

                user_uuids.append(user_uuids_item)

        group_create = cls(
            name=name,
            threshold=threshold,
            user_uuids=user_uuids,
        )

        return group_create
