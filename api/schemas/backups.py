"""Backup requests and responses (/api/v1/backup; docs/signing.md, "Backups")."""

from __future__ import annotations

import base64
import binascii
import uuid
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Field, StringConstraints, WithJsonSchema

from api.schemas.common import QueryParams, RequestBody, Resource, Timestamp, refused_as
from domain.signing import backups
from models.backups import Backup as BackupRow
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, TAPROOT_SCHEME

BackupStatus = Literal[tuple(backups.STATUSES)]
#: Lowercase hex of a group public key: 32 bytes (RFC 8032) or 33 (SEC1 compressed, secp256k1).
MasterXpub = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}([0-9a-f]{2})?$")]
#: Base64 (standard, padded) of a 64-byte signature (Ed25519, or BIP-340 for Taproot keys).
Ed25519Signature = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9+/]{86}==$")]

#: Longest text taken for a 32-byte key (its base64 is 44 characters).
_KEY_TEXT_MAX = 64


def _curve25519_key(value: Any) -> bytes:
    """Base64 (standard or URL-safe) of exactly 32 bytes. In a query string a ``+`` arrives as a
    space, so spaces count as ``+``."""
    if not isinstance(value, str):
        raise ValueError("must be a base64 string")
    encoded = value.strip().replace(" ", "+")
    if not encoded:
        raise ValueError("is required: base64 of a 32-byte Curve25519 public key")
    if len(encoded) > _KEY_TEXT_MAX:
        raise ValueError("must decode to 32 bytes (base64 of at most 44 characters)")
    encoded = encoded.replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("must be base64") from None
    if len(raw) != 32:
        raise ValueError(f"must decode to 32 bytes, got {len(raw)}")
    return raw


#: The requester's Curve25519 public key: the service seals every share to it. Refused (wrong
#: encoding or length, or a low-order point, checked by the service) with 400
#: INVALID_BACKUP_PUBLIC_KEY.
Curve25519PublicKey = Annotated[
    bytes,
    BeforeValidator(_curve25519_key),
    WithJsonSchema({"type": "string", "minLength": 43, "maxLength": 44,
                    "pattern": r"^[A-Za-z0-9+/_-]{43}=$",
                    "description": "Base64 (standard or URL-safe) of a 32-byte Curve25519 public key."}),
    refused_as("INVALID_BACKUP_PUBLIC_KEY"),
]


# --- requests ----------------------------------------------------------------------------------------


class BackupStart(RequestBody):
    public_key: Curve25519PublicKey


class TestFileQuery(QueryParams):
    public_key: Curve25519PublicKey


class BackupGroupSignature(RequestBody):
    """One key of the backup, signed by its rebuilt secret."""

    master_xpub: MasterXpub = Field(description="The key's group public key, as GET .../verify lists it.")
    # ``schema`` would shadow BaseModel.schema: the field has another name and the alias.
    schema_: Literal[ED25519_SCHEME, TAPROOT_SCHEME, ECDSA_SCHEME] = Field(alias="schema")
    signature: Ed25519Signature = Field(description="Base64 signature of the backup's verification_message "
                                                    "(custody-backup-verify:v1:<backup_id>): Ed25519 for "
                                                    "FROST-ED25519-SHA512-v1 keys; BIP-340 by the key-path "
                                                    "Taproot output key for FROST-secp256k1-SHA256-TR-v1 keys "
                                                    "(what a Bitcoin key-path spend is checked against); ECDSA "
                                                    "r || s (low s) of SHA-256(message) for "
                                                    "ECDSA-secp256k1-cait-sith-v1 keys.")


class BackupVerification(RequestBody):
    # At most 4,000 keys: 1,000 vaults (the default cap) with two key sets each fit twice over, and
    # 4,000 entries of about 230 bytes stay under the 1 MiB body limit, so the document never admits
    # a body the service refuses as too large (413).
    groups: list[Annotated[BackupGroupSignature, refused_as("BACKUP_VERIFICATION_FAILED")]] = Field(
        max_length=4_000, description="One entry for every key of the backup. A malformed entry, a missing, "
                                       "unknown or repeated key, another scheme or a signature that does not "
                                       "verify is 400 BACKUP_VERIFICATION_FAILED.")

    def as_domain(self) -> list[dict[str, Any]]:
        return [group.model_dump(by_alias=True) for group in self.groups]


# --- responses ---------------------------------------------------------------------------------------


class Backup(Resource):
    backup_id: uuid.UUID
    status: BackupStatus = Field(description="pending, in_progress, ready, verified; or cancelled, failed.")
    completed_at: Timestamp | None = Field(description="When the file was assembled.")
    completed_by: uuid.UUID | None = Field(description="Who requested the backup.")
    requested_at: Timestamp
    verified_at: Timestamp | None
    verified_by: uuid.UUID | None
    public_key: str = Field(description="Base64 of the Curve25519 key the shares are sealed to.")
    key_set_count: int = Field(ge=0, description="Keys in the backup (fixed when it starts).")
    file_sha256: str | None = Field(description="Hex SHA-256 of the file, once assembled.")
    error: str | None = Field(description="Why the backup failed.")

    @classmethod
    def of(cls, backup: BackupRow) -> "Backup":
        return cls(
            backup_id=backup.id, status=backup.status, completed_at=backup.completed_at,
            completed_by=backup.requested_by_id,
            requested_at=backup.created_at, verified_at=backup.verified_at,
            verified_by=backup.verified_by_id,
            public_key=base64.b64encode(bytes(backup.public_key)).decode(),
            key_set_count=len(backup.key_set_ids or []), file_sha256=backup.file_sha256, error=backup.error,
        )


class VerificationGroup(Resource):
    model_config = ConfigDict(serialize_by_alias=True)

    master_xpub: MasterXpub
    schema_: Literal[ED25519_SCHEME] = Field(alias="schema")
    key_set_id: uuid.UUID
    vault_id: uuid.UUID


class VerificationGroups(Resource):
    groups: list[VerificationGroup]

    @classmethod
    def of(cls, groups: list[dict[str, Any]]) -> "VerificationGroups":
        return cls(groups=[VerificationGroup.model_validate(group) for group in groups])
