from typing import Literal

AmlScreeningUpdateRiskLevel = Literal["high", "low", "medium", "severe"]

AML_SCREENING_UPDATE_RISK_LEVEL_VALUES: set[AmlScreeningUpdateRiskLevel] = {
    "high",
    "low",
    "medium",
    "severe",
}


def check_aml_screening_update_risk_level(value: str) -> AmlScreeningUpdateRiskLevel:
    if value in AML_SCREENING_UPDATE_RISK_LEVEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AML_SCREENING_UPDATE_RISK_LEVEL_VALUES!r}")
