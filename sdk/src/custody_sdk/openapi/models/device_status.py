from typing import Literal

DeviceStatus = Literal["active", "pending_confirmation", "revoked"]

DEVICE_STATUS_VALUES: set[DeviceStatus] = {
    "active",
    "pending_confirmation",
    "revoked",
}


def check_device_status(value: str) -> DeviceStatus:
    if value in DEVICE_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DEVICE_STATUS_VALUES!r}")
