from typing import Literal

WebhookWithSecretEventTypesItem = Literal[
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

WEBHOOK_WITH_SECRET_EVENT_TYPES_ITEM_VALUES: set[WebhookWithSecretEventTypesItem] = {
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


def check_webhook_with_secret_event_types_item(value: str) -> WebhookWithSecretEventTypesItem:
    if value in WEBHOOK_WITH_SECRET_EVENT_TYPES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_WITH_SECRET_EVENT_TYPES_ITEM_VALUES!r}")
