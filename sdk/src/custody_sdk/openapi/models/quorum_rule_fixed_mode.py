from typing import Literal

QuorumRuleFixedMode = Literal[
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM", "QUORUM_APPROVAL_MODE_OWNER_ONLY", "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"
]

QUORUM_RULE_FIXED_MODE_VALUES: set[QuorumRuleFixedMode] = {
    "QUORUM_APPROVAL_MODE_ADMIN_QUORUM",
    "QUORUM_APPROVAL_MODE_OWNER_ONLY",
    "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP",
}


def check_quorum_rule_fixed_mode(value: str) -> QuorumRuleFixedMode:
    if value in QUORUM_RULE_FIXED_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUORUM_RULE_FIXED_MODE_VALUES!r}")
