from typing import Literal

ListDeliveriesEventType = Literal[
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
    "webhook.test",
    "workspace.*",
    "workspace.owner_changed",
]

LIST_DELIVERIES_EVENT_TYPE_VALUES: set[ListDeliveriesEventType] = {
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
    "webhook.test",
    "workspace.*",
    "workspace.owner_changed",
}


def check_list_deliveries_event_type(value: str) -> ListDeliveriesEventType:
    if value in LIST_DELIVERIES_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DELIVERIES_EVENT_TYPE_VALUES!r}")
