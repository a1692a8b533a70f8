from typing import Literal

WebhookWithSecretEventTypesItem = Literal[
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
]

WEBHOOK_WITH_SECRET_EVENT_TYPES_ITEM_VALUES: set[WebhookWithSecretEventTypesItem] = {
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
}


def check_webhook_with_secret_event_types_item(value: str) -> WebhookWithSecretEventTypesItem:
    if value in WEBHOOK_WITH_SECRET_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_WITH_SECRET_EVENT_TYPES_ITEM_VALUES!r}")
