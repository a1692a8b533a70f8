from typing import Literal

PairingInvitationKind = Literal["device", "owner_enrollment"]

PAIRING_INVITATION_KIND_VALUES: set[PairingInvitationKind] = {
    "device",
    "owner_enrollment",
}


def check_pairing_invitation_kind(value: str) -> PairingInvitationKind:
    if value in PAIRING_INVITATION_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PAIRING_INVITATION_KIND_VALUES!r}")
