from typing import Literal

TransactionType = Literal["deposit", "withdrawal"]

TRANSACTION_TYPE_VALUES: set[TransactionType] = {
    "deposit",
    "withdrawal",
}


def check_transaction_type(value: str) -> TransactionType:
    if value in TRANSACTION_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRANSACTION_TYPE_VALUES!r}")
