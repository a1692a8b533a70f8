from typing import Literal

ListAmlScreeningsDirection = Literal["incoming", "outgoing"]

LIST_AML_SCREENINGS_DIRECTION_VALUES: set[ListAmlScreeningsDirection] = {
    "incoming",
    "outgoing",
}


def check_list_aml_screenings_direction(value: str) -> ListAmlScreeningsDirection:
    if value in LIST_AML_SCREENINGS_DIRECTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_AML_SCREENINGS_DIRECTION_VALUES!r}")
