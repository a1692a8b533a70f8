from typing import Literal

Round1PackageSender = Literal[3]

ROUND_1_PACKAGE_SENDER_VALUES: set[Round1PackageSender] = {
    3,
}


def check_round_1_package_sender(value: int) -> Round1PackageSender:
    if value in ROUND_1_PACKAGE_SENDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROUND_1_PACKAGE_SENDER_VALUES!r}")
