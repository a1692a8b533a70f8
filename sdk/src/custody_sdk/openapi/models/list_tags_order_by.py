from typing import Literal

ListTagsOrderBy = Literal["created_at", "is_protected", "label", "updated_at"]

LIST_TAGS_ORDER_BY_VALUES: set[ListTagsOrderBy] = {
    "created_at",
    "is_protected",
    "label",
    "updated_at",
}


def check_list_tags_order_by(value: str) -> ListTagsOrderBy:
    if value in LIST_TAGS_ORDER_BY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TAGS_ORDER_BY_VALUES!r}")
