from typing import Literal

CosignerPartStatus = Literal["committed", "registered"]

COSIGNER_PART_STATUS_VALUES: set[CosignerPartStatus] = {
    "committed",
    "registered",
}


def check_cosigner_part_status(value: str) -> CosignerPartStatus:
    if value in COSIGNER_PART_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COSIGNER_PART_STATUS_VALUES!r}")
