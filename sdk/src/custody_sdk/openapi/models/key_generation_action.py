from typing import Literal

KeyGenerationAction = Literal["finalize", "round1", "round2"]

KEY_GENERATION_ACTION_VALUES: set[KeyGenerationAction] = {
    "finalize",
    "round1",
    "round2",
}


def check_key_generation_action(value: str) -> KeyGenerationAction:
    if value in KEY_GENERATION_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_GENERATION_ACTION_VALUES!r}")
