from typing import Literal

WorkspaceWithRoleRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

WORKSPACE_WITH_ROLE_ROLE_VALUES: set[WorkspaceWithRoleRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_workspace_with_role_role(value: str) -> WorkspaceWithRoleRole:
    if value in WORKSPACE_WITH_ROLE_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKSPACE_WITH_ROLE_ROLE_VALUES!r}")
