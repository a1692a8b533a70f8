from typing import Literal

WebhookEventTypesItem = Literal[
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
]

WEBHOOK_EVENT_TYPES_ITEM_VALUES: set[WebhookEventTypesItem] = {
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
}


def check_webhook_event_types_item(value: str) -> WebhookEventTypesItem:
    if value in WEBHOOK_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_EVENT_TYPES_ITEM_VALUES!r}")
