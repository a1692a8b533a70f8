from typing import Literal

RejectedTagOperationOperation = Literal["attach", "detach"]

REJECTED_TAG_OPERATION_OPERATION_VALUES: set[RejectedTagOperationOperation] = {
    "attach",
    "detach",
}


def check_rejected_tag_operation_operation(value: str) -> RejectedTagOperationOperation:
    if value in REJECTED_TAG_OPERATION_OPERATION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REJECTED_TAG_OPERATION_OPERATION_VALUES!r}")
