from typing import Literal

ListVaultsTagMatchMode = Literal["all", "any"]

LIST_VAULTS_TAG_MATCH_MODE_VALUES: set[ListVaultsTagMatchMode] = {
    "all",
    "any",
}


def check_list_vaults_tag_match_mode(value: str) -> ListVaultsTagMatchMode:
    if value in LIST_VAULTS_TAG_MATCH_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_VAULTS_TAG_MATCH_MODE_VALUES!r}")
