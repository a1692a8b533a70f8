from typing import Literal

UserAddRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

USER_ADD_ROLE_VALUES: set[UserAddRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_user_add_role(value: str) -> UserAddRole:
    if value in USER_ADD_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {USER_ADD_ROLE_VALUES!r}")
