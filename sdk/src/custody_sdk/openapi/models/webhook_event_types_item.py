from typing import Literal

WebhookEventTypesItem = Literal[
    "backup.*",
    "backup.file_downloaded",
    "backup.started",
    "transaction.*",
    "transaction.approval_voted",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
    "workspace.*",
    "workspace.owner_changed",
]

WEBHOOK_EVENT_TYPES_ITEM_VALUES: set[WebhookEventTypesItem] = {
    "backup.*",
    "backup.file_downloaded",
    "backup.started",
    "transaction.*",
    "transaction.approval_voted",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
    "workspace.*",
    "workspace.owner_changed",
}


def check_webhook_event_types_item(value: str) -> WebhookEventTypesItem:
    if value in WEBHOOK_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_EVENT_TYPES_ITEM_VALUES!r}")
