from typing import Literal

InvitationStatus = Literal["accepted", "declined", "expired", "pending", "revoked"]

INVITATION_STATUS_VALUES: set[InvitationStatus] = {
    "accepted",
    "declined",
    "expired",
    "pending",
    "revoked",
}


def check_invitation_status(value: str) -> InvitationStatus:
    if value in INVITATION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INVITATION_STATUS_VALUES!r}")
