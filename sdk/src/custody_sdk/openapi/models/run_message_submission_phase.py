from typing import Literal

RunMessageSubmissionPhase = Literal["presign", "t0", "t1"]

RUN_MESSAGE_SUBMISSION_PHASE_VALUES: set[RunMessageSubmissionPhase] = {
    "presign",
    "t0",
    "t1",
}


def check_run_message_submission_phase(value: str) -> RunMessageSubmissionPhase:
    if value in RUN_MESSAGE_SUBMISSION_PHASE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RUN_MESSAGE_SUBMISSION_PHASE_VALUES!r}")
