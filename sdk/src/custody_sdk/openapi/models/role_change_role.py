from typing import Literal

RoleChangeRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

ROLE_CHANGE_ROLE_VALUES: set[RoleChangeRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_role_change_role(value: str) -> RoleChangeRole:
    if value in ROLE_CHANGE_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROLE_CHANGE_ROLE_VALUES!r}")
