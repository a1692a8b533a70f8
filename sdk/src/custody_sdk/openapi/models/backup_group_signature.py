from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.backup_group_signature_schema import (
    BackupGroupSignatureSchema,
    check_backup_group_signature_schema,
)

T = TypeVar("T", bound="BackupGroupSignature")


@_attrs_define
class BackupGroupSignature:
    """One key of the backup, signed by its rebuilt secret.

    Attributes:
        master_xpub (str): The key's group public key, as GET .../verify lists it.
        schema (BackupGroupSignatureSchema):
        signature (str): Base64 signature of the backup's verification_message (custody-backup-verify:v1:<backup_id>):
            Ed25519 for FROST-ED25519-SHA512-v1 keys; BIP-340 by the key-path Taproot output key for FROST-
            secp256k1-SHA256-TR-v1 keys (what a Bitcoin key-path spend is checked against); ECDSA r || s (low s) of
            SHA-256(message) for ECDSA-secp256k1-cait-sith-v1 keys.
    """

    master_xpub: str
    schema: BackupGroupSignatureSchema
    signature: str

    def to_dict(self) -> dict[str, Any]:
        master_xpub = self.master_xpub

        schema: str = self.schema

        signature = self.signature

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "master_xpub": master_xpub,
                "schema": schema,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        master_xpub = d.pop("master_xpub")

        schema = check_backup_group_signature_schema(d.pop("schema"))

        signature = d.pop("signature")

        backup_group_signature = cls(
            master_xpub=master_xpub,
            schema=schema,
            signature=signature,
        )

        return backup_group_signature
