from typing import Literal

ListDeliveriesEventType = Literal[
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
    "webhook.test",
]

LIST_DELIVERIES_EVENT_TYPE_VALUES: set[ListDeliveriesEventType] = {
    "transaction.*",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
    "webhook.test",
}


def check_list_deliveries_event_type(value: str) -> ListDeliveriesEventType:
    if value in LIST_DELIVERIES_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DELIVERIES_EVENT_TYPE_VALUES!r}")
