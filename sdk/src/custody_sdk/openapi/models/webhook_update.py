from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_update_event_types_item import (
    WebhookUpdateEventTypesItem,
    check_webhook_update_event_types_item,
)
from ..models.webhook_update_status import (
    WebhookUpdateStatus,
    check_webhook_update_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookUpdate")


@_attrs_define
class WebhookUpdate:
    """Any of the fields, at least one. ``status: active`` reactivates a disabled webhook (the
    failure count restarts); ``status: disabled`` pauses it (its open deliveries fail).

        Attributes:
            url (str | Unset): https:// URL of the receiver, at most 2048 characters; no credentials, no fragment; every
                address its host resolves to must be public (http only for loopback in development).
            event_types (list[WebhookUpdateEventTypesItem] | Unset): Event types and families to receive (duplicates are
                dropped).
            description (None | str | Unset): Free text, at most 255 characters; null clears it.
            status (WebhookUpdateStatus | Unset): active or disabled.
    """

    url: str | Unset = UNSET
    event_types: list[WebhookUpdateEventTypesItem] | Unset = UNSET
    description: None | str | Unset = UNSET
    status: WebhookUpdateStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types: list[str] | Unset = UNSET
        if not isinstance(self.event_types, Unset):
            event_types = []
            for event_types_item_data in self.event_types:
                event_types_item: str = event_types_item_data
                event_types.append(event_types_item)

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if url is not UNSET:
            field_dict["url"] = url
        if event_types is not UNSET:
            field_dict["event_types"] = event_types
        if description is not UNSET:
            field_dict["description"] = description
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url", UNSET)

        _event_types = d.pop("event_types", UNSET)
        event_types: list[WebhookUpdateEventTypesItem] | Unset = UNSET
        if _event_types is not UNSET:
            event_types = []
            for event_types_item_data in _event_types:
                event_types_item = check_webhook_update_event_types_item(event_types_item_data)

                event_types.append(event_types_item)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _status = d.pop("status", UNSET)
        status: WebhookUpdateStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = check_webhook_update_status(_status)

        webhook_update = cls(
            url=url,
            event_types=event_types,
            description=description,
            status=status,
        )

        return webhook_update
