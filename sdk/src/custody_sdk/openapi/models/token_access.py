from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_access_permissions_item import (
    TokenAccessPermissionsItem,
    check_token_access_permissions_item,
)
from ..models.token_access_role import TokenAccessRole, check_token_access_role

T = TypeVar("T", bound="TokenAccess")


@_attrs_define
class TokenAccess:
    """The caller's role in one workspace.

    Attributes:
        tenant_uuid (UUID):
        role (TokenAccessRole):
        role_status (str): ROLE_STATUS_ACTIVE while the role is in force.
        permissions (list[TokenAccessPermissionsItem]):
    """

    tenant_uuid: UUID
    role: TokenAccessRole
    role_status: str
    permissions: list[TokenAccessPermissionsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tenant_uuid = str(self.tenant_uuid)

        role: str = self.role

        role_status = self.role_status

        permissions = []
        for permissions_item_data in self.permissions:
            permissions_item: str = permissions_item_data
            permissions.append(permissions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tenant_uuid": tenant_uuid,
                "role": role,
                "role_status": role_status,
                "permissions": permissions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tenant_uuid = UUID(d.pop("tenant_uuid"))

        role = check_token_access_role(d.pop("role"))

        role_status = d.pop("role_status")

        permissions = []
        _permissions = d.pop("permissions")
        for permissions_item_data in _permissions:
            permissions_item = check_token_access_permissions_item(permissions_item_data)

            permissions.append(permissions_item)

        token_access = cls(
            tenant_uuid=tenant_uuid,
            role=role,
            role_status=role_status,
            permissions=permissions,
        )

        token_access.additional_properties = d
        return token_access

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
