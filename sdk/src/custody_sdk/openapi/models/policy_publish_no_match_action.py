from typing import Literal

PolicyPublishNoMatchAction = Literal["allow", "block"]

POLICY_PUBLISH_NO_MATCH_ACTION_VALUES: set[PolicyPublishNoMatchAction] = {
    "allow",
    "block",
}


def check_policy_publish_no_match_action(value: str) -> PolicyPublishNoMatchAction:
    if value in POLICY_PUBLISH_NO_MATCH_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {POLICY_PUBLISH_NO_MATCH_ACTION_VALUES!r}")
