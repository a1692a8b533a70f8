from typing import Literal

ListTransactionsDirection = Literal["incoming", "outgoing"]

LIST_TRANSACTIONS_DIRECTION_VALUES: set[ListTransactionsDirection] = {
    "incoming",
    "outgoing",
}


def check_list_transactions_direction(value: str) -> ListTransactionsDirection:
    if value in LIST_TRANSACTIONS_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TRANSACTIONS_DIRECTION_VALUES!r}")
