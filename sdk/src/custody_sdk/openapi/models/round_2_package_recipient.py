from typing import Literal

Round2PackageRecipient = Literal[1, 2]

ROUND_2_PACKAGE_RECIPIENT_VALUES: set[Round2PackageRecipient] = {
    1,
    2,
}


def check_round_2_package_recipient(value: int) -> Round2PackageRecipient:
    if value in ROUND_2_PACKAGE_RECIPIENT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROUND_2_PACKAGE_RECIPIENT_VALUES!r}")
