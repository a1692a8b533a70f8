from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.ownership_transfer_status import (
    OwnershipTransferStatus,
    check_ownership_transfer_status,
)

T = TypeVar("T", bound="OwnershipTransfer")


@_attrs_define
class OwnershipTransfer:
    """A transfer of the workspace's ownership: the owner starts it, the named member accepts it.

    Attributes:
        id (UUID):
        workspace_id (UUID):
        from_user_id (UUID): The owner who started it.
        to_user_id (UUID): The member who becomes owner on accepting.
        status (OwnershipTransferStatus):
        expires_at (datetime.datetime):
        created_at (datetime.datetime):
        decided_at (datetime.datetime | None):
    """

    id: UUID
    workspace_id: UUID
    from_user_id: UUID
    to_user_id: UUID
    status: OwnershipTransferStatus
    expires_at: datetime.datetime
    created_at: datetime.datetime
    decided_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        workspace_id = str(self.workspace_id)

        from_user_id = str(self.from_user_id)

        to_user_id = str(self.to_user_id)

        status: str = self.status

        expires_at = self.expires_at.isoformat()

        created_at = self.created_at.isoformat()

        decided_at: None | str
        if isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "workspace_id": workspace_id,
                "from_user_id": from_user_id,
                "to_user_id": to_user_id,
                "status": status,
                "expires_at": expires_at,
                "created_at": created_at,
                "decided_at": decided_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        workspace_id = UUID(d.pop("workspace_id"))

        from_user_id = UUID(d.pop("from_user_id"))

        to_user_id = UUID(d.pop("to_user_id"))

        status = check_ownership_transfer_status(d.pop("status"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_decided_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        decided_at = _parse_decided_at(d.pop("decided_at"))

        ownership_transfer = cls(
            id=id,
            workspace_id=workspace_id,
            from_user_id=from_user_id,
            to_user_id=to_user_id,
            status=status,
            expires_at=expires_at,
            created_at=created_at,
            decided_at=decided_at,
        )

        ownership_transfer.additional_properties = d
        return ownership_transfer

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
