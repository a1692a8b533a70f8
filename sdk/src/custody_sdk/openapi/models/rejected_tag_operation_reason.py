from typing import Literal

RejectedTagOperationReason = Literal["TAG_LIMIT_REACHED", "TAG_NOT_FOUND", "VAULT_FROZEN", "VAULT_NOT_FOUND"]

REJECTED_TAG_OPERATION_REASON_VALUES: set[RejectedTagOperationReason] = {
    "TAG_LIMIT_REACHED",
    "TAG_NOT_FOUND",
    "VAULT_FROZEN",
    "VAULT_NOT_FOUND",
}


def check_rejected_tag_operation_reason(value: str) -> RejectedTagOperationReason:
    if value in REJECTED_TAG_OPERATION_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REJECTED_TAG_OPERATION_REASON_VALUES!r}")
