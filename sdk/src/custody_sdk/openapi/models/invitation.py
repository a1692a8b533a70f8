from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.invitation_role import InvitationRole, check_invitation_role
from ..models.invitation_status import InvitationStatus, check_invitation_status

T = TypeVar("T", bound="Invitation")


@_attrs_define
class Invitation:
    """An invitation: what the inviter supplied, and the invitation's own state. Never anything
    about the person the address may belong to.

        Attributes:
            id (UUID):
            email (str):
            role (InvitationRole):
            first_name (None | str):
            last_name (None | str):
            status (InvitationStatus):
            expires_at (datetime.datetime):
            created_at (datetime.datetime):
            invited_by (None | UUID):
    """

    id: UUID
    email: str
    role: InvitationRole
    first_name: None | str
    last_name: None | str
    status: InvitationStatus
    expires_at: datetime.datetime
    created_at: datetime.datetime
    invited_by: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        email = self.email

        role: str = self.role

        first_name: None | str
        first_name = self.first_name

        last_name: None | str
        last_name = self.last_name

        status: str = self.status

        expires_at = self.expires_at.isoformat()

        created_at = self.created_at.isoformat()

        invited_by: None | str
        if isinstance(self.invited_by, UUID):
            invited_by = str(self.invited_by)
        else:
            invited_by = self.invited_by

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "email": email,
                "role": role,
                "first_name": first_name,
                "last_name": last_name,
                "status": status,
                "expires_at": expires_at,
                "created_at": created_at,
                "invited_by": invited_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        email = d.pop("email")

        role = check_invitation_role(d.pop("role"))

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

        status = check_invitation_status(d.pop("status"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_invited_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                invited_by_type_0 = UUID(data)

                return invited_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        invited_by = _parse_invited_by(d.pop("invited_by"))

        invitation = cls(
            id=id,
            email=email,
            role=role,
            first_name=first_name,
            last_name=last_name,
            status=status,
            expires_at=expires_at,
            created_at=created_at,
            invited_by=invited_by,
        )

        invitation.additional_properties = d
        return invitation

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
