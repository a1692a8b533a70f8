from typing import Literal

KeyGenerationStatus = Literal["failed", "finalize", "ready", "round1", "round2"]

KEY_GENERATION_STATUS_VALUES: set[KeyGenerationStatus] = {
    "failed",
    "finalize",
    "ready",
    "round1",
    "round2",
}


def check_key_generation_status(value: str) -> KeyGenerationStatus:
    if value in KEY_GENERATION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_GENERATION_STATUS_VALUES!r}")
