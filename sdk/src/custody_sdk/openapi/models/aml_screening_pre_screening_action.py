from typing import Literal

AmlScreeningPreScreeningAction = Literal["bypass", "screen"]

AML_SCREENING_PRE_SCREENING_ACTION_VALUES: set[AmlScreeningPreScreeningAction] = {
    "bypass",
    "screen",
}


def check_aml_screening_pre_screening_action(value: str) -> AmlScreeningPreScreeningAction:
    if value in AML_SCREENING_PRE_SCREENING_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AML_SCREENING_PRE_SCREENING_ACTION_VALUES!r}")
