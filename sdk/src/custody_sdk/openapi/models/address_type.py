from typing import Literal

AddressType = Literal["receive"]

ADDRESS_TYPE_VALUES: set[AddressType] = {
    "receive",
}


def check_address_type(value: str) -> AddressType:
    if value in ADDRESS_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ADDRESS_TYPE_VALUES!r}")
