from typing import Literal

AllTagsOrderDir = Literal["asc", "desc"]

ALL_TAGS_ORDER_DIR_VALUES: set[AllTagsOrderDir] = {
    "asc",
    "desc",
}


def check_all_tags_order_dir(value: str) -> AllTagsOrderDir:
    if value in ALL_TAGS_ORDER_DIR_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALL_TAGS_ORDER_DIR_VALUES!r}")
