from typing import Literal

SigningRequestAction = Literal["commit", "presign", "sign"]

SIGNING_REQUEST_ACTION_VALUES: set[SigningRequestAction] = {
    "commit",
    "presign",
    "sign",
}


def check_signing_request_action(value: str) -> SigningRequestAction:
    if value in SIGNING_REQUEST_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SIGNING_REQUEST_ACTION_VALUES!r}")
