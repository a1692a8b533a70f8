from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_delivery_event_type import (
    WebhookDeliveryEventType,
    check_webhook_delivery_event_type,
)
from ..models.webhook_delivery_status import (
    WebhookDeliveryStatus,
    check_webhook_delivery_status,
)

T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """A delivery history entry: the last attempt's number, HTTP code, body and error.

    Attributes:
        id (UUID):
        webhook_id (UUID):
        event_id (UUID):
        event_type (WebhookDeliveryEventType):
        status (WebhookDeliveryStatus):
        attempt (int): Attempts made so far (0: none yet).
        response_status_code (int | None): HTTP status of the last attempt.
        response_body (None | str): First 4 KB of the last attempt's response body.
        error (None | str): Why the last attempt failed.
        created_at (datetime.datetime):
        last_attempt_at (datetime.datetime | None):
        next_attempt_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        replay_count (int):
    """

    id: UUID
    webhook_id: UUID
    event_id: UUID
    event_type: WebhookDeliveryEventType
    status: WebhookDeliveryStatus
    attempt: int
    response_status_code: int | None
    response_body: None | str
    error: None | str
    created_at: datetime.datetime
    last_attempt_at: datetime.datetime | None
    next_attempt_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    replay_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        webhook_id = str(self.webhook_id)

        event_id = str(self.event_id)

        event_type: str = self.event_type

        status: str = self.status

        attempt = self.attempt

        response_status_code: int | None
        response_status_code = self.response_status_code

        response_body: None | str
        response_body = self.response_body

        error: None | str
        error = self.error

        created_at = self.created_at.isoformat()

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        replay_count = self.replay_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "webhook_id": webhook_id,
                "event_id": event_id,
                "event_type": event_type,
                "status": status,
                "attempt": attempt,
                "response_status_code": response_status_code,
                "response_body": response_body,
                "error": error,
                "created_at": created_at,
                "last_attempt_at": last_attempt_at,
                "next_attempt_at": next_attempt_at,
                "finished_at": finished_at,
                "replay_count": replay_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        webhook_id = UUID(d.pop("webhook_id"))

        event_id = UUID(d.pop("event_id"))

        event_type = check_webhook_delivery_event_type(d.pop("event_type"))

        status = check_webhook_delivery_status(d.pop("status"))

        attempt = d.pop("attempt")

        def _parse_response_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status_code = _parse_response_status_code(d.pop("response_status_code"))

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        replay_count = d.pop("replay_count")

        webhook_delivery = cls(
            id=id,
            webhook_id=webhook_id,
            event_id=event_id,
            event_type=event_type,
            status=status,
            attempt=attempt,
            response_status_code=response_status_code,
            response_body=response_body,
            error=error,
            created_at=created_at,
            last_attempt_at=last_attempt_at,
            next_attempt_at=next_attempt_at,
            finished_at=finished_at,
            replay_count=replay_count,
        )

        webhook_delivery.additional_properties = d
        return webhook_delivery

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
