from typing import Literal

ListDeliveriesStatus = Literal["failed", "pending", "retrying", "succeeded"]

LIST_DELIVERIES_STATUS_VALUES: set[ListDeliveriesStatus] = {
    "failed",
    "pending",
    "retrying",
    "succeeded",
}


def check_list_deliveries_status(value: str) -> ListDeliveriesStatus:
    if value in LIST_DELIVERIES_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DELIVERIES_STATUS_VALUES!r}")
