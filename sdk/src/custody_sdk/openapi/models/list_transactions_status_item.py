from typing import Literal

ListTransactionsStatusItem = Literal[
    "approved",
    "awaiting_approvals",
    "awaiting_broadcast",
    "broadcast",
    "cancelled",
    "checks",
    "declined",
    "expired",
    "failed",
    "finished",
    "frozen",
    "pending",
    "signing",
]

LIST_TRANSACTIONS_STATUS_ITEM_VALUES: set[ListTransactionsStatusItem] = {
    "approved",
    "awaiting_approvals",
    "awaiting_broadcast",
    "broadcast",
    "cancelled",
    "checks",
    "declined",
    "expired",
    "failed",
    "finished",
    "frozen",
    "pending",
    "signing",
}


def check_list_transactions_status_item(value: str) -> ListTransactionsStatusItem:
    if value in LIST_TRANSACTIONS_STATUS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TRANSACTIONS_STATUS_ITEM_VALUES!r}")
