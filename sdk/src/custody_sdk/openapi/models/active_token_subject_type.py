from typing import Literal

ActiveTokenSubjectType = Literal["api_user", "device", "user"]

ACTIVE_TOKEN_SUBJECT_TYPE_VALUES: set[ActiveTokenSubjectType] = {
    "api_user",
    "device",
    "user",
}


def check_active_token_subject_type(value: str) -> ActiveTokenSubjectType:
    if value in ACTIVE_TOKEN_SUBJECT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ACTIVE_TOKEN_SUBJECT_TYPE_VALUES!r}")
