from typing import Literal

WorkspaceUserUserType = Literal["api_user", "user"]

WORKSPACE_USER_USER_TYPE_VALUES: set[WorkspaceUserUserType] = {
    "api_user",
    "user",
}


def check_workspace_user_user_type(value: str) -> WorkspaceUserUserType:
    if value in WORKSPACE_USER_USER_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKSPACE_USER_USER_TYPE_VALUES!r}")
