from typing import Literal

OwnershipTransferStatus = Literal["accepted", "cancelled", "declined", "expired", "pending"]

OWNERSHIP_TRANSFER_STATUS_VALUES: set[OwnershipTransferStatus] = {
    "accepted",
    "cancelled",
    "declined",
    "expired",
    "pending",
}


def check_ownership_transfer_status(value: str) -> OwnershipTransferStatus:
    if value in OWNERSHIP_TRANSFER_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {OWNERSHIP_TRANSFER_STATUS_VALUES!r}")
