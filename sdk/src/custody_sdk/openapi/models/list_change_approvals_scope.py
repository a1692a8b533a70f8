from typing import Literal

ListChangeApprovalsScope = Literal["ALL", "INITIATED_BY_ME", "PENDING_MY_VOTE"]

LIST_CHANGE_APPROVALS_SCOPE_VALUES: set[ListChangeApprovalsScope] = {
    "ALL",
    "INITIATED_BY_ME",
    "PENDING_MY_VOTE",
}


def check_list_change_approvals_scope(value: str) -> ListChangeApprovalsScope:
    if value in LIST_CHANGE_APPROVALS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_CHANGE_APPROVALS_SCOPE_VALUES!r}")
