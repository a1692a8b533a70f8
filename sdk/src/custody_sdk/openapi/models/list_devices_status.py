from typing import Literal

ListDevicesStatus = Literal["active", "pending_confirmation", "revoked"]

LIST_DEVICES_STATUS_VALUES: set[ListDevicesStatus] = {
    "active",
    "pending_confirmation",
    "revoked",
}


def check_list_devices_status(value: str) -> ListDevicesStatus:
    if value in LIST_DEVICES_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_DEVICES_STATUS_VALUES!r}")
