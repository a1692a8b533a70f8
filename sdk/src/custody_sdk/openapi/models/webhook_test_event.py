from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_test_event_event_type import (
    WebhookTestEventEventType,
    check_webhook_test_event_event_type,
)

T = TypeVar("T", bound="WebhookTestEvent")


@_attrs_define
class WebhookTestEvent:
    """The queued test event and its delivery to this webhook.

    Attributes:
        event_id (UUID):
        event_type (WebhookTestEventEventType):
        delivery_id (UUID):
    """

    event_id: UUID
    event_type: WebhookTestEventEventType
    delivery_id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event_id = str(self.event_id)

        event_type: str = self.event_type

        delivery_id = str(self.delivery_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event_id": event_id,
                "event_type": event_type,
                "delivery_id": delivery_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event_id = UUID(d.pop("event_id"))

        event_type = check_webhook_test_event_event_type(d.pop("event_type"))

        delivery_id = UUID(d.pop("delivery_id"))

        webhook_test_event = cls(
            event_id=event_id,
            event_type=event_type,
            delivery_id=delivery_id,
        )

        webhook_test_event.additional_properties = d
        return webhook_test_event

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
