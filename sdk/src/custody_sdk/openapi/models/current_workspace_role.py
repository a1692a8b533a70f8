from typing import Literal

CurrentWorkspaceRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

CURRENT_WORKSPACE_ROLE_VALUES: set[CurrentWorkspaceRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_current_workspace_role(value: str) -> CurrentWorkspaceRole:
    if value in CURRENT_WORKSPACE_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CURRENT_WORKSPACE_ROLE_VALUES!r}")
