from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workspace_with_role_network_type import (
    WorkspaceWithRoleNetworkType,
    check_workspace_with_role_network_type,
)
from ..models.workspace_with_role_role import (
    WorkspaceWithRoleRole,
    check_workspace_with_role_role,
)

T = TypeVar("T", bound="WorkspaceWithRole")


@_attrs_define
class WorkspaceWithRole:
    """A workspace the caller has a role in.

    Attributes:
        id (UUID):
        company_id (UUID):
        name (str):
        network_type (WorkspaceWithRoleNetworkType):
        created_at (datetime.datetime):
        role (WorkspaceWithRoleRole):
    """

    id: UUID
    company_id: UUID
    name: str
    network_type: WorkspaceWithRoleNetworkType
    created_at: datetime.datetime
    role: WorkspaceWithRoleRole
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        company_id = str(self.company_id)

        name = self.name

        network_type: str = self.network_type

        created_at = self.created_at.isoformat()

        role: str = self.role

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
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        company_id = UUID(d.pop("company_id"))

        name = d.pop("name")

        network_type = check_workspace_with_role_network_type(d.pop("network_type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        role = check_workspace_with_role_role(d.pop("role"))

        workspace_with_role = cls(
            id=id,
            company_id=company_id,
            name=name,
            network_type=network_type,
            created_at=created_at,
            role=role,
        )

        workspace_with_role.additional_properties = d
        return workspace_with_role

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
