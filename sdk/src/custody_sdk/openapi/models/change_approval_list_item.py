from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.change_approval_list_item_status import (
    ChangeApprovalListItemStatus,
    check_change_approval_list_item_status,
)

T = TypeVar("T", bound="ChangeApprovalListItem")


@_attrs_define
class ChangeApprovalListItem:
    """
    Attributes:
        request_uuid (UUID):
        tenant_uuid (UUID):
        tenant_name (str):
        action (str):
        action_display_name (str):
        operation (None | str):
        status (ChangeApprovalListItemStatus):
        initiated_by_me (bool):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
    """

    request_uuid: UUID
    tenant_uuid: UUID
    tenant_name: str
    action: str
    action_display_name: str
    operation: None | str
    status: ChangeApprovalListItemStatus
    initiated_by_me: bool
    created_at: datetime.datetime
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        request_uuid = str(self.request_uuid)

        tenant_uuid = str(self.tenant_uuid)

        tenant_name = self.tenant_name

        action = self.action

        action_display_name = self.action_display_name

        operation: None | str
        operation = self.operation

        status: str = self.status

        initiated_by_me = self.initiated_by_me

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "request_uuid": request_uuid,
                "tenant_uuid": tenant_uuid,
                "tenant_name": tenant_name,
                "action": action,
                "action_display_name": action_display_name,
                "operation": operation,
                "status": status,
                "initiated_by_me": initiated_by_me,
                "created_at": created_at,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        request_uuid = UUID(d.pop("request_uuid"))

        tenant_uuid = UUID(d.pop("tenant_uuid"))

        tenant_name = d.pop("tenant_name")

        action = d.pop("action")

        action_display_name = d.pop("action_display_name")

        def _parse_operation(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        operation = _parse_operation(d.pop("operation"))

        status = check_change_approval_list_item_status(d.pop("status"))

        initiated_by_me = d.pop("initiated_by_me")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        change_approval_list_item = cls(
            request_uuid=request_uuid,
            tenant_uuid=tenant_uuid,
            tenant_name=tenant_name,
            action=action,
            action_display_name=action_display_name,
            operation=operation,
            status=status,
            initiated_by_me=initiated_by_me,
            created_at=created_at,
            expires_at=expires_at,
        )

        change_approval_list_item.additional_properties = d
        return change_approval_list_item

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
