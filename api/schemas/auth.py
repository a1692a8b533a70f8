"""Authentication requests and responses (/api/v2/auth), and the types other schemas share with
them: Ed25519 public keys, role and permission names, unix-millisecond strings."""

from __future__ import annotations

import base64
import uuid
from typing import Annotated, Any, Literal, Union

from pydantic import Field, RootModel, StringConstraints

from api.schemas.common import RequestBody, Resource, refused_as
from domain.permissions import Permission, WorkspaceRole

#: A workspace role (the table in domain/permissions.py).
RoleName = Literal[tuple(role.value for role in WorkspaceRole)]
#: A permission name (the table in domain/permissions.py).
PermissionName = Literal[tuple(permission.value for permission in Permission)]

#: An Ed25519 public key: 32 bytes in standard base64 (44 characters, one ``=``). Whether the
#: bytes are a point of the curve is checked by the domain (400 VALIDATION_ERROR on ``public_key``).
Ed25519PublicKey = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Za-z0-9+/]{43}=$")]


def key_bytes(public_key: str) -> bytes:
    """The 32 bytes of an :data:`Ed25519PublicKey` (already checked by its pattern)."""
    return base64.b64decode(public_key, validate=True)


#: Unix milliseconds (or seconds) written as a decimal string: the spec's form of these times.
UnixMillis = Annotated[str, StringConstraints(pattern=r"^-?[0-9]+$")]
UnixSeconds = Annotated[str, StringConstraints(pattern=r"^-?[0-9]+$")]


class ServerTime(Resource):
    unix_milliseconds: UnixMillis = Field(description="Server time in unix milliseconds (a string).")
    unix_seconds: UnixSeconds = Field(description="Server time in unix seconds (a string); sign token requests with it.")


class TokenRequest(RequestBody):
    """A signed token request. ``data`` is kept byte for byte (it is what was signed); its inner
    fields are checked by the service, which answers 400 INVALID_TOKEN_REQUEST naming
    ``data.<field>``. A ``data`` or ``signature`` that is not a string (or is too long) is an
    INVALID_TOKEN_REQUEST too; only a missing or unknown field is a VALIDATION_ERROR."""

    data: Annotated[str, StringConstraints(max_length=4096), refused_as("INVALID_TOKEN_REQUEST")] = Field(
        description="The JSON payload, as a string: {client_type: device|user, client_id (UUID), "
                    "timestamp (unix seconds, within 5 minutes of server time), nonce (8 to 128 "
                    "characters, once per client)}.")
    signature: Annotated[str, StringConstraints(max_length=256), refused_as("INVALID_TOKEN_REQUEST")] = Field(
        description="Base64 Ed25519 signature of the exact UTF-8 bytes of data.")


class AccessToken(Resource):
    access_token: str = Field(description="The bearer token: cws_ followed by 32 random bytes (URL-safe base64).")
    expires_at: UnixMillis = Field(description="Expiry in unix milliseconds (a string).")


class TokenAccess(Resource):
    """The caller's role in one workspace."""

    tenant_uuid: uuid.UUID
    role: RoleName
    role_status: str = Field(description="ROLE_STATUS_ACTIVE while the role is in force.")
    permissions: list[PermissionName]


class ActiveToken(Resource):
    active: Literal[True]
    issuer: str
    audience: list[str]
    jti: uuid.UUID = Field(description="The token's id.")
    subject: uuid.UUID = Field(description="The device when the token is a device's, otherwise the user.")
    subject_type: Literal["api_user", "user", "device"]
    subject_uuid: uuid.UUID = Field(description="The user the token acts for.")
    email: str = Field(description="The user's email; empty for an API user.")
    issued_at: UnixMillis
    expires_at: UnixMillis
    accesses: list[TokenAccess]

    @classmethod
    def of(cls, result: dict[str, Any]) -> "ActiveToken":
        return cls.model_validate(result)


class InactiveToken(Resource):
    """An expired, revoked or unknown token: only ``{"active": false}``."""

    active: Literal[False]


class Introspection(RootModel[Union[ActiveToken, InactiveToken]]):
    """The token introspection result: the full record, or ``{"active": false}``."""

    @classmethod
    def of(cls, result: dict[str, Any]) -> "Introspection":
        if result.get("active"):
            return cls(ActiveToken.of(result))
        return cls(InactiveToken(active=False))
