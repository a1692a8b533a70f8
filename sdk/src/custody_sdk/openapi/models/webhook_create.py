from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_create_event_types_item import (
    WebhookCreateEventTypesItem,
    check_webhook_create_event_types_item,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="WebhookCreate")


@_attrs_define
class WebhookCreate:
    """
    Attributes:
        url (str): https:// URL of the receiver, at most 2048 characters; no credentials, no fragment; every address its
            host resolves to must be public (http only for loopback in development).
        event_types (list[WebhookCreateEventTypesItem]): Event types and families to receive (duplicates are dropped).
        description (None | str | Unset): Free text, at most 255 characters.
    """

    url: str
    event_types: list[WebhookCreateEventTypesItem]
    description: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        event_types = []
        for event_types_item_data in self.event_types:
            event_types_item: str = event_types_item_data
            event_types.append(event_types_item)

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "event_types": event_types,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        event_types = []
        _event_types = d.pop("event_types")
        for event_types_item_data in _event_types:
            event_types_item = check_webhook_create_event_types_item(event_types_item_data)

            event_types.append(event_types_item)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        webhook_create = cls(
            url=url,
            event_types=event_types,
            description=description,
        )

        return webhook_create
