from typing import Literal

CurrencyNetworkType = Literal["mainnet", "testnet"]

CURRENCY_NETWORK_TYPE_VALUES: set[CurrencyNetworkType] = {
    "mainnet",
    "testnet",
}


def check_currency_network_type(value: str) -> CurrencyNetworkType:
    if value in CURRENCY_NETWORK_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CURRENCY_NETWORK_TYPE_VALUES!r}")
