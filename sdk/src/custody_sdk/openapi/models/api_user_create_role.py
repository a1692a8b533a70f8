from typing import Literal

ApiUserCreateRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

API_USER_CREATE_ROLE_VALUES: set[ApiUserCreateRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_api_user_create_role(value: str) -> ApiUserCreateRole:
    if value in API_USER_CREATE_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {API_USER_CREATE_ROLE_VALUES!r}")
