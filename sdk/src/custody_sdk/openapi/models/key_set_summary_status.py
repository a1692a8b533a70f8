from typing import Literal

KeySetSummaryStatus = Literal["failed", "finalize", "ready", "round1", "round2"]

KEY_SET_SUMMARY_STATUS_VALUES: set[KeySetSummaryStatus] = {
    "failed",
    "finalize",
    "ready",
    "round1",
    "round2",
}


def check_key_set_summary_status(value: str) -> KeySetSummaryStatus:
    if value in KEY_SET_SUMMARY_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_SET_SUMMARY_STATUS_VALUES!r}")
