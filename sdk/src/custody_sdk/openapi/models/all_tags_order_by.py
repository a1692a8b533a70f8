from typing import Literal

AllTagsOrderBy = Literal["created_at", "is_protected", "label", "updated_at"]

ALL_TAGS_ORDER_BY_VALUES: set[AllTagsOrderBy] = {
    "created_at",
    "is_protected",
    "label",
    "updated_at",
}


def check_all_tags_order_by(value: str) -> AllTagsOrderBy:
    if value in ALL_TAGS_ORDER_BY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ALL_TAGS_ORDER_BY_VALUES!r}")
