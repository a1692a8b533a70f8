from typing import Literal

WebhookUpdateEventTypesItem = Literal[
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

WEBHOOK_UPDATE_EVENT_TYPES_ITEM_VALUES: set[WebhookUpdateEventTypesItem] = {
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


def check_webhook_update_event_types_item(value: str) -> WebhookUpdateEventTypesItem:
    if value in WEBHOOK_UPDATE_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_UPDATE_EVENT_TYPES_ITEM_VALUES!r}")
