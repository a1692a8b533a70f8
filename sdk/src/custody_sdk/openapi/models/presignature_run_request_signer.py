from typing import Literal

PresignatureRunRequestSigner = Literal[1, 2]

PRESIGNATURE_RUN_REQUEST_SIGNER_VALUES: set[PresignatureRunRequestSigner] = {
    1,
    2,
}


def check_presignature_run_request_signer(value: int) -> PresignatureRunRequestSigner:
    if value in PRESIGNATURE_RUN_REQUEST_SIGNER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PRESIGNATURE_RUN_REQUEST_SIGNER_VALUES!r}")
