from typing import Literal

SigningRequestStatus = Literal["completed", "failed", "round1", "round2"]

SIGNING_REQUEST_STATUS_VALUES: set[SigningRequestStatus] = {
    "completed",
    "failed",
    "round1",
    "round2",
}


def check_signing_request_status(value: str) -> SigningRequestStatus:
    if value in SIGNING_REQUEST_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SIGNING_REQUEST_STATUS_VALUES!r}")
