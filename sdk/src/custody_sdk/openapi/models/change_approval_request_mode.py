from typing import Literal

ChangeApprovalRequestMode = Literal[
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM", "QUORUM_APPROVAL_MODE_OWNER_ONLY", "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"
]

CHANGE_APPROVAL_REQUEST_MODE_VALUES: set[ChangeApprovalRequestMode] = {
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM",
    "QUORUM_APPROVAL_MODE_OWNER_ONLY",
    "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP",
}


def check_change_approval_request_mode(value: str) -> ChangeApprovalRequestMode:
    if value in CHANGE_APPROVAL_REQUEST_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CHANGE_APPROVAL_REQUEST_MODE_VALUES!r}")
