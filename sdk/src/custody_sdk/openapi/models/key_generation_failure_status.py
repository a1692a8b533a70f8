from typing import Literal

KeyGenerationFailureStatus = Literal["failed", "finalize", "ready", "round1", "round2"]

KEY_GENERATION_FAILURE_STATUS_VALUES: set[KeyGenerationFailureStatus] = {
    "failed",
    "finalize",
    "ready",
    "round1",
    "round2",
}


def check_key_generation_failure_status(value: str) -> KeyGenerationFailureStatus:
    if value in KEY_GENERATION_FAILURE_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_GENERATION_FAILURE_STATUS_VALUES!r}")
