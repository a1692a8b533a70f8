from typing import Literal

WorkspaceUserStatus = Literal["active", "removed"]

WORKSPACE_USER_STATUS_VALUES: set[WorkspaceUserStatus] = {
    "active",
    "removed",
}


def check_workspace_user_status(value: str) -> WorkspaceUserStatus:
    if value in WORKSPACE_USER_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKSPACE_USER_STATUS_VALUES!r}")
