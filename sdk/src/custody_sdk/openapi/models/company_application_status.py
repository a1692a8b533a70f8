from typing import Literal

CompanyApplicationStatus = Literal["in_review", "submitted"]

COMPANY_APPLICATION_STATUS_VALUES: set[CompanyApplicationStatus] = {
    "in_review",
    "submitted",
}


def check_company_application_status(value: str) -> CompanyApplicationStatus:
    if value in COMPANY_APPLICATION_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {COMPANY_APPLICATION_STATUS_VALUES!r}")
