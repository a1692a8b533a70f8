from typing import Literal

ChangeApprovalRequestStatus = Literal["APPROVED", "CANCELLED", "EXECUTED", "EXPIRED", "FAILED", "PENDING", "REJECTED"]

CHANGE_APPROVAL_REQUEST_STATUS_VALUES: set[ChangeApprovalRequestStatus] = {
    "APPROVED",
    "CANCELLED",
    "EXECUTED",
    "EXPIRED",
    "FAILED",
    "PENDING",
    "REJECTED",
}


def check_change_approval_request_status(value: str) -> ChangeApprovalRequestStatus:
    if value in CHANGE_APPROVAL_REQUEST_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CHANGE_APPROVAL_REQUEST_STATUS_VALUES!r}")
