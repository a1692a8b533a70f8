from typing import Literal

QuorumActionUpdateMode = Literal[
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM", "QUORUM_APPROVAL_MODE_OWNER_ONLY", "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"
]

QUORUM_ACTION_UPDATE_MODE_VALUES: set[QuorumActionUpdateMode] = {
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM",
    "QUORUM_APPROVAL_MODE_OWNER_ONLY",
    "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP",
}


def check_quorum_action_update_mode(value: str) -> QuorumActionUpdateMode:
    if value in QUORUM_ACTION_UPDATE_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUORUM_ACTION_UPDATE_MODE_VALUES!r}")
