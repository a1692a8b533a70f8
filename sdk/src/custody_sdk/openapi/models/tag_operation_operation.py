from typing import Literal

TagOperationOperation = Literal["attach", "detach"]

TAG_OPERATION_OPERATION_VALUES: set[TagOperationOperation] = {
    "attach",
    "detach",
}


def check_tag_operation_operation(value: str) -> TagOperationOperation:
    if value in TAG_OPERATION_OPERATION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TAG_OPERATION_OPERATION_VALUES!r}")
