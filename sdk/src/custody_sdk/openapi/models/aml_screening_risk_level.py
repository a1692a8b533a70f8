from typing import Literal

AmlScreeningRiskLevel = Literal["high", "low", "medium", "severe"]

AML_SCREENING_RISK_LEVEL_VALUES: set[AmlScreeningRiskLevel] = {
    "high",
    "low",
    "medium",
    "severe",
}


def check_aml_screening_risk_level(value: str) -> AmlScreeningRiskLevel:
    if value in AML_SCREENING_RISK_LEVEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AML_SCREENING_RISK_LEVEL_VALUES!r}")
