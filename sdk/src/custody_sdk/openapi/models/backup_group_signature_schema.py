from typing import Literal

BackupGroupSignatureSchema = Literal[
    "ECDSA-secp256k1-cait-sith-v1", "FROST-ED25519-SHA512-v1", "FROST-secp256k1-SHA256-TR-v1"
]

BACKUP_GROUP_SIGNATURE_SCHEMA_VALUES: set[BackupGroupSignatureSchema] = {
    "ECDSA-secp256k1-cait-sith-v1",
    "FROST-ED25519-SHA512-v1",
    "FROST-secp256k1-SHA256-TR-v1",
}


def check_backup_group_signature_schema(value: str) -> BackupGroupSignatureSchema:
    if value in BACKUP_GROUP_SIGNATURE_SCHEMA_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {BACKUP_GROUP_SIGNATURE_SCHEMA_VALUES!r}")
