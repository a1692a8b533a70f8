from typing import Literal

QuorumActionFixedMode = Literal[
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM", "QUORUM_APPROVAL_MODE_OWNER_ONLY", "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"
]

QUORUM_ACTION_FIXED_MODE_VALUES: set[QuorumActionFixedMode] = {
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM",
    "QUORUM_APPROVAL_MODE_OWNER_ONLY",
    "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP",
}


def check_quorum_action_fixed_mode(value: str) -> QuorumActionFixedMode:
    if value in QUORUM_ACTION_FIXED_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUORUM_ACTION_FIXED_MODE_VALUES!r}")
