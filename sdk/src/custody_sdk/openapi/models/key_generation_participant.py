from typing import Literal

KeyGenerationParticipant = Literal[3]

KEY_GENERATION_PARTICIPANT_VALUES: set[KeyGenerationParticipant] = {
    3,
}


def check_key_generation_participant(value: int) -> KeyGenerationParticipant:
    if value in KEY_GENERATION_PARTICIPANT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_GENERATION_PARTICIPANT_VALUES!r}")
