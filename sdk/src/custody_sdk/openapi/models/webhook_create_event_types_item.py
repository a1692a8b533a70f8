from typing import Literal

WebhookCreateEventTypesItem = Literal[
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

WEBHOOK_CREATE_EVENT_TYPES_ITEM_VALUES: set[WebhookCreateEventTypesItem] = {
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


def check_webhook_create_event_types_item(value: str) -> WebhookCreateEventTypesItem:
    if value in WEBHOOK_CREATE_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_CREATE_EVENT_TYPES_ITEM_VALUES!r}")
