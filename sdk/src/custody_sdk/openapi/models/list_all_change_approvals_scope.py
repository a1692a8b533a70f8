from typing import Literal

ListAllChangeApprovalsScope = Literal["ALL", "INITIATED_BY_ME", "PENDING_MY_VOTE"]

LIST_ALL_CHANGE_APPROVALS_SCOPE_VALUES: set[ListAllChangeApprovalsScope] = {
    "ALL",
    "INITIATED_BY_ME",
    "PENDING_MY_VOTE",
}


def check_list_all_change_approvals_scope(value: str) -> ListAllChangeApprovalsScope:
    if value in LIST_ALL_CHANGE_APPROVALS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_ALL_CHANGE_APPROVALS_SCOPE_VALUES!r}")
