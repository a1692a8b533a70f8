from typing import Literal

ChangeApprovalListItemStatus = Literal["APPROVED", "CANCELLED", "EXECUTED", "EXPIRED", "FAILED", "PENDING", "REJECTED"]

CHANGE_APPROVAL_LIST_ITEM_STATUS_VALUES: set[ChangeApprovalListItemStatus] = {
    "APPROVED",
    "CANCELLED",
    "EXECUTED",
    "EXPIRED",
    "FAILED",
    "PENDING",
    "REJECTED",
}


def check_change_approval_list_item_status(value: str) -> ChangeApprovalListItemStatus:
    if value in CHANGE_APPROVAL_LIST_ITEM_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CHANGE_APPROVAL_LIST_ITEM_STATUS_VALUES!r}")
