from typing import Literal

AmlScreeningDirection = Literal["incoming", "outgoing"]

AML_SCREENING_DIRECTION_VALUES: set[AmlScreeningDirection] = {
    "incoming",
    "outgoing",
}


def check_aml_screening_direction(value: str) -> AmlScreeningDirection:
    if value in AML_SCREENING_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AML_SCREENING_DIRECTION_VALUES!r}")
