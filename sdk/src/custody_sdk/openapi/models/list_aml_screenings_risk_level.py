from typing import Literal

ListAmlScreeningsRiskLevel = Literal["high", "low", "medium", "severe"]

LIST_AML_SCREENINGS_RISK_LEVEL_VALUES: set[ListAmlScreeningsRiskLevel] = {
    "high",
    "low",
    "medium",
    "severe",
}


def check_list_aml_screenings_risk_level(value: str) -> ListAmlScreeningsRiskLevel:
    if value in LIST_AML_SCREENINGS_RISK_LEVEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_AML_SCREENINGS_RISK_LEVEL_VALUES!r}")
