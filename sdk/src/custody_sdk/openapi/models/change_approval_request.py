from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.change_approval_request_mode import (
    ChangeApprovalRequestMode,
    check_change_approval_request_mode,
)
from ..models.change_approval_request_status import (
    ChangeApprovalRequestStatus,
    check_change_approval_request_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.approver_set import ApproverSet
    from ..models.change_approval_request_display import ChangeApprovalRequestDisplay
    from ..models.change_approval_request_payload import ChangeApprovalRequestPayload
    from ..models.participant import Participant


T = TypeVar("T", bound="ChangeApprovalRequest")


@_attrs_define
class ChangeApprovalRequest:
    """
    Attributes:
        request_uuid (UUID):
        tenant_uuid (UUID):
        tenant_name (str):
        action (str):
        action_display_name (str):
        operation (None | str):
        mode (ChangeApprovalRequestMode):
        initiator (Participant):
        initiated_by_me (bool):
        payload (ChangeApprovalRequestPayload):
        status (ChangeApprovalRequestStatus):
        sets (list[ApproverSet]):
        created_at (datetime.datetime):
        expires_at (datetime.datetime):
        display (ChangeApprovalRequestDisplay | None | Unset): Names captured at creation; absent without snapshot.
        decided_at (datetime.datetime | None | Unset):
        executed_at (datetime.datetime | None | Unset):
        failure_code (None | str | Unset): FAILED: the code of the reason.
        failure_reason (None | str | Unset): FAILED: why the change could not be applied.
    """

    request_uuid: UUID
    tenant_uuid: UUID
    tenant_name: str
    action: str
    action_display_name: str
    operation: None | str
    mode: ChangeApprovalRequestMode
    initiator: Participant
    initiated_by_me: bool
    payload: ChangeApprovalRequestPayload
    status: ChangeApprovalRequestStatus
    sets: list[ApproverSet]
    created_at: datetime.datetime
    expires_at: datetime.datetime
    display: ChangeApprovalRequestDisplay | None | Unset = UNSET
    decided_at: datetime.datetime | None | Unset = UNSET
    executed_at: datetime.datetime | None | Unset = UNSET
    failure_code: None | str | Unset = UNSET
    failure_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.change_approval_request_display import (
            ChangeApprovalRequestDisplay,  # noqa: PLC0415
        )

        request_uuid = str(self.request_uuid)

        tenant_uuid = str(self.tenant_uuid)

        tenant_name = self.tenant_name

        action = self.action

        action_display_name = self.action_display_name

        operation: None | str
        operation = self.operation

        mode: str = self.mode

        initiator = self.initiator.to_dict()

        initiated_by_me = self.initiated_by_me

        payload = self.payload.to_dict()

        status: str = self.status

        sets = []
        for sets_item_data in self.sets:
            sets_item = sets_item_data.to_dict()
            sets.append(sets_item)

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        display: dict[str, Any] | None | Unset
        if isinstance(self.display, Unset):
            display = UNSET
        elif isinstance(self.display, ChangeApprovalRequestDisplay):
            display = self.display.to_dict()
        else:
            display = self.display

        decided_at: None | str | Unset
        if isinstance(self.decided_at, Unset):
            decided_at = UNSET
        elif isinstance(self.decided_at, datetime.datetime):
            decided_at = self.decided_at.isoformat()
        else:
            decided_at = self.decided_at

        executed_at: None | str | Unset
        if isinstance(self.executed_at, Unset):
            executed_at = UNSET
        elif isinstance(self.executed_at, datetime.datetime):
            executed_at = self.executed_at.isoformat()
        else:
            executed_at = self.executed_at

        failure_code: None | str | Unset
        if isinstance(self.failure_code, Unset):
            failure_code = UNSET
        else:
            failure_code = self.failure_code

        failure_reason: None | str | Unset
        if isinstance(self.failure_reason, Unset):
            failure_reason = UNSET
        else:
            failure_reason = self.failure_reason

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
                "mode": mode,
                "initiator": initiator,
                "initiated_by_me": initiated_by_me,
                "payload": payload,
                "status": status,
                "sets": sets,
                "created_at": created_at,
                "expires_at": expires_at,
            }
        )
        if display is not UNSET:
            field_dict["display"] = display
        if decided_at is not UNSET:
            field_dict["decided_at"] = decided_at
        if executed_at is not UNSET:
            field_dict["executed_at"] = executed_at
        if failure_code is not UNSET:
            field_dict["failure_code"] = failure_code
        if failure_reason is not UNSET:
            field_dict["failure_reason"] = failure_reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.approver_set import ApproverSet  # noqa: PLC0415
        from ..models.change_approval_request_display import (
            ChangeApprovalRequestDisplay,  # noqa: PLC0415
        )
        from ..models.change_approval_request_payload import (
            ChangeApprovalRequestPayload,  # noqa: PLC0415
        )
        from ..models.participant import Participant  # noqa: PLC0415

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

        mode = check_change_approval_request_mode(d.pop("mode"))

        initiator = Participant.from_dict(d.pop("initiator"))

        initiated_by_me = d.pop("initiated_by_me")

        payload = ChangeApprovalRequestPayload.from_dict(d.pop("payload"))

        status = check_change_approval_request_status(d.pop("status"))

        sets = []
        _sets = d.pop("sets")
        for sets_item_data in _sets:
            sets_item = ApproverSet.from_dict(sets_item_data)

            sets.append(sets_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_display(data: object) -> ChangeApprovalRequestDisplay | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                display_type_0 = ChangeApprovalRequestDisplay.from_dict(data)

                return display_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ChangeApprovalRequestDisplay | None | Unset, data)

        display = _parse_display(d.pop("display", UNSET))

        def _parse_decided_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decided_at_type_0 = datetime.datetime.fromisoformat(data)

                return decided_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        decided_at = _parse_decided_at(d.pop("decided_at", UNSET))

        def _parse_executed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                executed_at_type_0 = datetime.datetime.fromisoformat(data)

                return executed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        executed_at = _parse_executed_at(d.pop("executed_at", UNSET))

        def _parse_failure_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_code = _parse_failure_code(d.pop("failure_code", UNSET))

        def _parse_failure_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason", UNSET))

        change_approval_request = cls(
            request_uuid=request_uuid,
            tenant_uuid=tenant_uuid,
            tenant_name=tenant_name,
            action=action,
            action_display_name=action_display_name,
            operation=operation,
            mode=mode,
            initiator=initiator,
            initiated_by_me=initiated_by_me,
            payload=payload,
            status=status,
            sets=sets,
            created_at=created_at,
            expires_at=expires_at,
            display=display,
            decided_at=decided_at,
            executed_at=executed_at,
            failure_code=failure_code,
            failure_reason=failure_reason,
        )

        change_approval_request.additional_properties = d
        return change_approval_request

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
