from typing import Literal

InvitationRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

INVITATION_ROLE_VALUES: set[InvitationRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_invitation_role(value: str) -> InvitationRole:
    if value in INVITATION_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INVITATION_ROLE_VALUES!r}")
