from typing import Literal

ListInvitationsStatus = Literal["accepted", "declined", "expired", "pending", "revoked"]

LIST_INVITATIONS_STATUS_VALUES: set[ListInvitationsStatus] = {
    "accepted",
    "declined",
    "expired",
    "pending",
    "revoked",
}


def check_list_invitations_status(value: str) -> ListInvitationsStatus:
    if value in LIST_INVITATIONS_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_INVITATIONS_STATUS_VALUES!r}")
