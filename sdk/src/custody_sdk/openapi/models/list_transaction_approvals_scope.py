from typing import Literal

ListTransactionApprovalsScope = Literal["ALL", "PENDING_MY_VOTE"]

LIST_TRANSACTION_APPROVALS_SCOPE_VALUES: set[ListTransactionApprovalsScope] = {
    "ALL",
    "PENDING_MY_VOTE",
}


def check_list_transaction_approvals_scope(value: str) -> ListTransactionApprovalsScope:
    if value in LIST_TRANSACTION_APPROVALS_SCOPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TRANSACTION_APPROVALS_SCOPE_VALUES!r}")
