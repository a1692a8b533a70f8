from typing import Literal

AmlScreeningStatus = Literal["bypassed", "cancelled", "completed", "pending"]

AML_SCREENING_STATUS_VALUES: set[AmlScreeningStatus] = {
    "bypassed",
    "cancelled",
    "completed",
    "pending",
}


def check_aml_screening_status(value: str) -> AmlScreeningStatus:
    if value in AML_SCREENING_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AML_SCREENING_STATUS_VALUES!r}")
