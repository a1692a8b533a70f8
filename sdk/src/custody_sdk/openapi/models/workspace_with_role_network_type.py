from typing import Literal

WorkspaceWithRoleNetworkType = Literal["mainnet", "testnet"]

WORKSPACE_WITH_ROLE_NETWORK_TYPE_VALUES: set[WorkspaceWithRoleNetworkType] = {
    "mainnet",
    "testnet",
}


def check_workspace_with_role_network_type(value: str) -> WorkspaceWithRoleNetworkType:
    if value in WORKSPACE_WITH_ROLE_NETWORK_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WORKSPACE_WITH_ROLE_NETWORK_TYPE_VALUES!r}")
