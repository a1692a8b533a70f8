from typing import Literal

WorkspaceNetworkType = Literal["mainnet", "testnet"]

WORKSPACE_NETWORK_TYPE_VALUES: set[WorkspaceNetworkType] = {
    "mainnet",
    "testnet",
}


def check_workspace_network_type(value: str) -> WorkspaceNetworkType:
    if value in WORKSPACE_NETWORK_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKSPACE_NETWORK_TYPE_VALUES!r}")
