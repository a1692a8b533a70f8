from typing import Literal

WebhookCreateEventTypesItem = Literal[
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
]

WEBHOOK_CREATE_EVENT_TYPES_ITEM_VALUES: set[WebhookCreateEventTypesItem] = {
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
}


def check_webhook_create_event_types_item(value: str) -> WebhookCreateEventTypesItem:
    if value in WEBHOOK_CREATE_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_CREATE_EVENT_TYPES_ITEM_VALUES!r}")
