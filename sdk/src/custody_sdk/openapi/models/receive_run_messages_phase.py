from typing import Literal

ReceiveRunMessagesPhase = Literal["presign", "t0", "t1"]

RECEIVE_RUN_MESSAGES_PHASE_VALUES: set[ReceiveRunMessagesPhase] = {
    "presign",
    "t0",
    "t1",
}


def check_receive_run_messages_phase(value: str) -> ReceiveRunMessagesPhase:
    if value in RECEIVE_RUN_MESSAGES_PHASE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RECEIVE_RUN_MESSAGES_PHASE_VALUES!r}")
