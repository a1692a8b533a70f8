from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.current_workspace_network_type import (
    CurrentWorkspaceNetworkType,
    check_current_workspace_network_type,
)
from ..models.current_workspace_permissions_item import (
    CurrentWorkspacePermissionsItem,
    check_current_workspace_permissions_item,
)
from ..models.current_workspace_role import (
    CurrentWorkspaceRole,
    check_current_workspace_role,
)

T = TypeVar("T", bound="CurrentWorkspace")


@_attrs_define
class CurrentWorkspace:
    """The selected workspace with the caller's role and that role's permissions.

    Attributes:
        id (UUID):
        company_id (UUID):
        name (str):
        network_type (CurrentWorkspaceNetworkType):
        created_at (datetime.datetime):
        role (CurrentWorkspaceRole):
        permissions (list[CurrentWorkspacePermissionsItem]): Sorted by name.
    """

    id: UUID
    company_id: UUID
    name: str
    network_type: CurrentWorkspaceNetworkType
    created_at: datetime.datetime
    role: CurrentWorkspaceRole
    permissions: list[CurrentWorkspacePermissionsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        company_id = str(self.company_id)

        name = self.name

        network_type: str = self.network_type

        created_at = self.created_at.isoformat()

        role: str = self.role

        permissions = []
        for permissions_item_data in self.permissions:
            permissions_item: str = permissions_item_data
            permissions.append(permissions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "company_id": company_id,
                "name": name,
                "network_type": network_type,
                "created_at": created_at,
                "role": role,
                "permissions": permissions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        company_id = UUID(d.pop("company_id"))

        name = d.pop("name")

        network_type = check_current_workspace_network_type(d.pop("network_type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        role = check_current_workspace_role(d.pop("role"))

        permissions = []
        _permissions = d.pop("permissions")
        for permissions_item_data in _permissions:
            permissions_item = check_current_workspace_permissions_item(permissions_item_data)

            permissions.append(permissions_item)

        current_workspace = cls(
            id=id,
            company_id=company_id,
            name=name,
            network_type=network_type,
            created_at=created_at,
            role=role,
            permissions=permissions,
        )

        current_workspace.additional_properties = d
        return current_workspace

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
