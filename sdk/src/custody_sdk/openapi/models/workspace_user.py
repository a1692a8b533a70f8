from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.workspace_user_role import WorkspaceUserRole, check_workspace_user_role
from ..models.workspace_user_status import (
    WorkspaceUserStatus,
    check_workspace_user_status,
)
from ..models.workspace_user_user_type import (
    WorkspaceUserUserType,
    check_workspace_user_user_type,
)

T = TypeVar("T", bound="WorkspaceUser")


@_attrs_define
class WorkspaceUser:
    """A member of the workspace: a person (``user``) or an API user (``api_user``).

    Attributes:
        id (UUID):
        user_type (WorkspaceUserUserType):
        email (None | str): A person's email; null for an API user.
        first_name (None | str):
        last_name (None | str):
        api_user_name (None | str): An API user's name; null for a person.
        role (WorkspaceUserRole):
        role_status (str): ROLE_STATUS_ACTIVE while the role is in force.
        status (WorkspaceUserStatus):
        created_at (datetime.datetime):
    """

    id: UUID
    user_type: WorkspaceUserUserType
    email: None | str
    first_name: None | str
    last_name: None | str
    api_user_name: None | str
    role: WorkspaceUserRole
    role_status: str
    status: WorkspaceUserStatus
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        user_type: str = self.user_type

        email: None | str
        email = self.email

        first_name: None | str
        first_name = self.first_name

        last_name: None | str
        last_name = self.last_name

        api_user_name: None | str
        api_user_name = self.api_user_name

        role: str = self.role

        role_status = self.role_status

        status: str = self.status

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "user_type": user_type,
                "email": email,
                "first_name": first_name,
                "last_name": last_name,
                "api_user_name": api_user_name,
                "role": role,
                "role_status": role_status,
                "status": status,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        user_type = check_workspace_user_user_type(d.pop("user_type"))

        def _parse_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        email = _parse_email(d.pop("email"))

        def _parse_first_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        first_name = _parse_first_name(d.pop("first_name"))

        def _parse_last_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_name = _parse_last_name(d.pop("last_name"))

        def _parse_api_user_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        api_user_name = _parse_api_user_name(d.pop("api_user_name"))

        role = check_workspace_user_role(d.pop("role"))

        role_status = d.pop("role_status")

        status = check_workspace_user_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        workspace_user = cls(
            id=id,
            user_type=user_type,
            email=email,
            first_name=first_name,
            last_name=last_name,
            api_user_name=api_user_name,
            role=role,
            role_status=role_status,
            status=status,
            created_at=created_at,
        )

        workspace_user.additional_properties = d
        return workspace_user

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
