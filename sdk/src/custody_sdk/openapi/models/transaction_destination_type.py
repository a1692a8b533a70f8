from typing import Literal

TransactionDestinationType = Literal["internal", "one_time", "whitelisted"]

TRANSACTION_DESTINATION_TYPE_VALUES: set[TransactionDestinationType] = {
    "internal",
    "one_time",
    "whitelisted",
}


def check_transaction_destination_type(value: str) -> TransactionDestinationType:
    if value in TRANSACTION_DESTINATION_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRANSACTION_DESTINATION_TYPE_VALUES!r}")
