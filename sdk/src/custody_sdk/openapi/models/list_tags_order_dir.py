from typing import Literal

ListTagsOrderDir = Literal["asc", "desc"]

LIST_TAGS_ORDER_DIR_VALUES: set[ListTagsOrderDir] = {
    "asc",
    "desc",
}


def check_list_tags_order_dir(value: str) -> ListTagsOrderDir:
    if value in LIST_TAGS_ORDER_DIR_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_TAGS_ORDER_DIR_VALUES!r}")
