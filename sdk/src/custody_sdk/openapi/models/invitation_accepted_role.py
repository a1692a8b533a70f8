from typing import Literal

InvitationAcceptedRole = Literal["ADMIN", "APPROVER", "EDITOR", "NON_SIGNING_ADMIN", "OWNER", "SIGNER", "VIEWER"]

INVITATION_ACCEPTED_ROLE_VALUES: set[InvitationAcceptedRole] = {
    "ADMIN",
    "APPROVER",
    "EDITOR",
    "NON_SIGNING_ADMIN",
    "OWNER",
    "SIGNER",
    "VIEWER",
}


def check_invitation_accepted_role(value: str) -> InvitationAcceptedRole:
    if value in INVITATION_ACCEPTED_ROLE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {INVITATION_ACCEPTED_ROLE_VALUES!r}")
