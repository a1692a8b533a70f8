from typing import Literal

TransactionStatus = Literal[
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

TRANSACTION_STATUS_VALUES: set[TransactionStatus] = {
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


def check_transaction_status(value: str) -> TransactionStatus:
    if value in TRANSACTION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRANSACTION_STATUS_VALUES!r}")
