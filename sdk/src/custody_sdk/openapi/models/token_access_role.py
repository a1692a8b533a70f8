from typing import Literal

TokenAccessRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

TOKEN_ACCESS_ROLE_VALUES: set[TokenAccessRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_token_access_role(value: str) -> TokenAccessRole:
    if value in TOKEN_ACCESS_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TOKEN_ACCESS_ROLE_VALUES!r}")
