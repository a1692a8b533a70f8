from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.workspace_with_role import WorkspaceWithRole


T = TypeVar("T", bound="WorkspaceList")


@_attrs_define
class WorkspaceList:
    """One page of the caller's workspaces, oldest first.

    Attributes:
        workspaces (list[WorkspaceWithRole]):
        total (int):
        limit (int):
        offset (int):
    """

    workspaces: list[WorkspaceWithRole]
    total: int
    limit: int
    offset: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        workspaces = []
        for workspaces_item_data in self.workspaces:
            workspaces_item = workspaces_item_data.to_dict()
            workspaces.append(workspaces_item)

        total = self.total

        limit = self.limit

        offset = self.offset

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "workspaces": workspaces,
                "total": total,
                "limit": limit,
                "offset": offset,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workspace_with_role import WorkspaceWithRole  # noqa: PLC0415

        d = dict(src_dict)
        workspaces = []
        _workspaces = d.pop("workspaces")
        for workspaces_item_data in _workspaces:
            workspaces_item = WorkspaceWithRole.from_dict(workspaces_item_data)

            workspaces.append(workspaces_item)

        total = d.pop("total")

        limit = d.pop("limit")

        offset = d.pop("offset")

        workspace_list = cls(
            workspaces=workspaces,
            total=total,
            limit=limit,
            offset=offset,
        )

        workspace_list.additional_properties = d
        return workspace_list

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
