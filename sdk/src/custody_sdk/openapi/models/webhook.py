from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_event_types_item import (
    WebhookEventTypesItem,
    check_webhook_event_types_item,
)
from ..models.webhook_status import WebhookStatus, check_webhook_status

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """A webhook; its secret is shown only by create and rotate-secret.

    Attributes:
        id (UUID):
        url (str):
        description (str):
        event_types (list[WebhookEventTypesItem]):
        status (WebhookStatus):
        disabled_reason (None | str):
        disabled_at (datetime.datetime | None):
        consecutive_failures (int): Failed attempts in a row; 50 disable the webhook.
        secret_rotated_at (datetime.datetime | None):
        previous_secret_expires_at (datetime.datetime | None): Until then the previous secret also signs; null when no
            previous secret is valid.
        last_success_at (datetime.datetime | None):
        last_failure_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    url: str
    description: str
    event_types: list[WebhookEventTypesItem]
    status: WebhookStatus
    disabled_reason: None | str
    disabled_at: datetime.datetime | None
    consecutive_failures: int
    secret_rotated_at: datetime.datetime | None
    previous_secret_expires_at: datetime.datetime | None
    last_success_at: datetime.datetime | None
    last_failure_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        description = self.description

        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item: str = event_types_item_data
            event_types.append(event_types_item)

        status: str = self.status

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        disabled_at: None | str
        if isinstance(self.disabled_at, datetime.datetime):
            disabled_at = self.disabled_at.isoformat()
        else:
            disabled_at = self.disabled_at

        consecutive_failures = self.consecutive_failures

        secret_rotated_at: None | str
        if isinstance(self.secret_rotated_at, datetime.datetime):
            secret_rotated_at = self.secret_rotated_at.isoformat()
        else:
            secret_rotated_at = self.secret_rotated_at

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        last_success_at: None | str
        if isinstance(self.last_success_at, datetime.datetime):
            last_success_at = self.last_success_at.isoformat()
        else:
            last_success_at = self.last_success_at

        last_failure_at: None | str
        if isinstance(self.last_failure_at, datetime.datetime):
            last_failure_at = self.last_failure_at.isoformat()
        else:
            last_failure_at = self.last_failure_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "description": description,
                "event_types": event_types,
                "status": status,
                "disabled_reason": disabled_reason,
                "disabled_at": disabled_at,
                "consecutive_failures": consecutive_failures,
                "secret_rotated_at": secret_rotated_at,
                "previous_secret_expires_at": previous_secret_expires_at,
                "last_success_at": last_success_at,
                "last_failure_at": last_failure_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        url = d.pop("url")

        description = d.pop("description")

        event_types = []
        _event_types = d.pop("event_types")
        for event_types_item_data in _event_types:
            event_types_item = check_webhook_event_types_item(event_types_item_data)

            event_types.append(event_types_item)

        status = check_webhook_status(d.pop("status"))

        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))

        def _parse_disabled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                disabled_at_type_0 = datetime.datetime.fromisoformat(data)

                return disabled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        disabled_at = _parse_disabled_at(d.pop("disabled_at"))

        consecutive_failures = d.pop("consecutive_failures")

        def _parse_secret_rotated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secret_rotated_at_type_0 = datetime.datetime.fromisoformat(data)

                return secret_rotated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secret_rotated_at = _parse_secret_rotated_at(d.pop("secret_rotated_at"))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(d.pop("previous_secret_expires_at"))

        def _parse_last_success_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_success_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_success_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_success_at = _parse_last_success_at(d.pop("last_success_at"))

        def _parse_last_failure_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_failure_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_failure_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_failure_at = _parse_last_failure_at(d.pop("last_failure_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        webhook = cls(
            id=id,
            url=url,
            description=description,
            event_types=event_types,
            status=status,
            disabled_reason=disabled_reason,
            disabled_at=disabled_at,
            consecutive_failures=consecutive_failures,
            secret_rotated_at=secret_rotated_at,
            previous_secret_expires_at=previous_secret_expires_at,
            last_success_at=last_success_at,
            last_failure_at=last_failure_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        webhook.additional_properties = d
        return webhook

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
