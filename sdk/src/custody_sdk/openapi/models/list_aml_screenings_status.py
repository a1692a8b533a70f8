from typing import Literal

ListAmlScreeningsStatus = Literal["bypassed", "cancelled", "completed", "pending"]

LIST_AML_SCREENINGS_STATUS_VALUES: set[ListAmlScreeningsStatus] = {
    "bypassed",
    "cancelled",
    "completed",
    "pending",
}


def check_list_aml_screenings_status(value: str) -> ListAmlScreeningsStatus:
    if value in LIST_AML_SCREENINGS_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_AML_SCREENINGS_STATUS_VALUES!r}")
