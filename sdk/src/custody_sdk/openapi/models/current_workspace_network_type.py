from typing import Literal

CurrentWorkspaceNetworkType = Literal["mainnet", "testnet"]

CURRENT_WORKSPACE_NETWORK_TYPE_VALUES: set[CurrentWorkspaceNetworkType] = {
    "mainnet",
    "testnet",
}


def check_current_workspace_network_type(value: str) -> CurrentWorkspaceNetworkType:
    if value in CURRENT_WORKSPACE_NETWORK_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CURRENT_WORKSPACE_NETWORK_TYPE_VALUES!r}")
