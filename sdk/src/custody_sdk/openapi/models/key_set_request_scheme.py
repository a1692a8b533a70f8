from typing import Literal

KeySetRequestScheme = Literal["ECDSA-secp256k1-cait-sith-v1", "FROST-ED25519-SHA512-v1", "FROST-secp256k1-SHA256-TR-v1"]

KEY_SET_REQUEST_SCHEME_VALUES: set[KeySetRequestScheme] = {
    "ECDSA-secp256k1-cait-sith-v1",
    "FROST-ED25519-SHA512-v1",
    "FROST-secp256k1-SHA256-TR-v1",
}


def check_key_set_request_scheme(value: str) -> KeySetRequestScheme:
    if value in KEY_SET_REQUEST_SCHEME_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {KEY_SET_REQUEST_SCHEME_VALUES!r}")
