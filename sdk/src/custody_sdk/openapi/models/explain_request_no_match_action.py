from typing import Literal

ExplainRequestNoMatchAction = Literal["allow", "block"]

EXPLAIN_REQUEST_NO_MATCH_ACTION_VALUES: set[ExplainRequestNoMatchAction] = {
    "allow",
    "block",
}


def check_explain_request_no_match_action(value: str) -> ExplainRequestNoMatchAction:
    if value in EXPLAIN_REQUEST_NO_MATCH_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPLAIN_REQUEST_NO_MATCH_ACTION_VALUES!r}")
