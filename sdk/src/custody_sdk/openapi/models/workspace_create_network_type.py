from typing import Literal

WorkspaceCreateNetworkType = Literal["mainnet", "testnet"]

WORKSPACE_CREATE_NETWORK_TYPE_VALUES: set[WorkspaceCreateNetworkType] = {
    "mainnet",
    "testnet",
}


def check_workspace_create_network_type(value: str) -> WorkspaceCreateNetworkType:
    if value in WORKSPACE_CREATE_NETWORK_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKSPACE_CREATE_NETWORK_TYPE_VALUES!r}")
