from typing import Literal

WebhookEventTypesItem = Literal[
    "backup.*",
    "backup.file_downloaded",
    "backup.started",
    "change_approval.*",
    "change_approval.approved",
    "change_approval.cancelled",
    "change_approval.created",
    "change_approval.executed",
    "change_approval.expired",
    "change_approval.failed",
    "change_approval.rejected",
    "change_approval.voted",
    "gas_station.*",
    "gas_station.budget_reached",
    "gas_station.low_balance",
    "transaction.*",
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
    "change_approval.*",
    "change_approval.approved",
    "change_approval.cancelled",
    "change_approval.created",
    "change_approval.executed",
    "change_approval.expired",
    "change_approval.failed",
    "change_approval.rejected",
    "change_approval.voted",
    "gas_station.*",
    "gas_station.budget_reached",
    "gas_station.low_balance",
    "transaction.*",
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
