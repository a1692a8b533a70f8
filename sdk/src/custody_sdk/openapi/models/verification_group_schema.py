from typing import Literal

VerificationGroupSchema = Literal["FROST-ED25519-SHA512-v1"]

VERIFICATION_GROUP_SCHEMA_VALUES: set[VerificationGroupSchema] = {
    "FROST-ED25519-SHA512-v1",
}


def check_verification_group_schema(value: str) -> VerificationGroupSchema:
    if value in VERIFICATION_GROUP_SCHEMA_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VERIFICATION_GROUP_SCHEMA_VALUES!r}")
