from typing import Literal

AmlScreeningPostScreeningAction = Literal["allow", "block", "freeze", "require_approval"]

AML_SCREENING_POST_SCREENING_ACTION_VALUES: set[AmlScreeningPostScreeningAction] = {
    "allow",
    "block",
    "freeze",
    "require_approval",
}


def check_aml_screening_post_screening_action(value: str) -> AmlScreeningPostScreeningAction:
    if value in AML_SCREENING_POST_SCREENING_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AML_SCREENING_POST_SCREENING_ACTION_VALUES!r}")
