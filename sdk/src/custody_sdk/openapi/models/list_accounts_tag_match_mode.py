from typing import Literal

ListAccountsTagMatchMode = Literal["all", "any"]

LIST_ACCOUNTS_TAG_MATCH_MODE_VALUES: set[ListAccountsTagMatchMode] = {
    "all",
    "any",
}


def check_list_accounts_tag_match_mode(value: str) -> ListAccountsTagMatchMode:
    if value in LIST_ACCOUNTS_TAG_MATCH_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_ACCOUNTS_TAG_MATCH_MODE_VALUES!r}")
