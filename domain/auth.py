"""Authentication: signed token requests, opaque access tokens, principals and introspection.

A client (an API user, or a paired device) signs a JSON payload ``{client_type, client_id,
timestamp, nonce}`` with its Ed25519 key. The service verifies the signature against the
stored public key *before* looking at the timestamp or recording the nonce, so nobody can burn
another client's nonces. A token is 32 random bytes; only its SHA-256 is stored.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import secrets
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey
from tortoise import connections

from core import clock
from core.settings import get_settings
from domain import auth_cache
from domain.errors import (
    DomainError,
    NotFound,
    PermissionDenied,
    Unauthenticated,
    ValidationFailed,
)
from domain.permissions import Permission, permissions_of, platform_permissions_of
from models.auth import AccessToken, Device
from models.users import User, WorkspaceMember
from models.workspaces import Workspace

TOKEN_PREFIX = "cws_"
CLIENT_TYPES = frozenset({"device", "user"})
#: A signed payload's timestamp beyond this (in unix seconds, either way) is malformed, not just late.
_MAX_TIMESTAMP = 2**63 - 1
_NONCE_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
_CANONICAL_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass(frozen=True)
class Access:
    """The caller's role in one workspace."""

    workspace_id: uuid.UUID
    role: str
    role_status: str

    @property
    def permissions(self) -> frozenset[Permission]:
        if self.role_status != "ROLE_STATUS_ACTIVE":
            return frozenset()
        return permissions_of(self.role)


@dataclass(frozen=True)
class Principal:
    """Who is calling: the user behind the token, the device used (if any) and the accesses."""

    user: User
    token: AccessToken
    device: Device | None
    accesses: dict[uuid.UUID, Access] = field(default_factory=dict)

    @property
    def platform_permissions(self) -> frozenset[Permission]:
        return platform_permissions_of(self.user.platform_role)

    def access_to(self, workspace_id: uuid.UUID) -> Access | None:
        return self.accesses.get(workspace_id)

    def require(self, workspace_id: uuid.UUID, permission: Permission) -> Access:
        """The caller's access to the workspace, if it grants ``permission``; else 403."""
        access = self.accesses.get(workspace_id)
        if access is None:
            # Same answer as for a workspace that does not exist: never reveal it.
            raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
        if permission not in access.permissions:
            raise PermissionDenied(
                f"your role {access.role} lacks the permission {permission.value}",
                code="PERMISSION_DENIED",
                details={"permission": permission.value, "role": access.role},
            )
        return access

    def require_platform(self, permission: Permission) -> None:
        if permission not in self.platform_permissions:
            raise PermissionDenied(
                f"this needs the platform permission {permission.value}",
                details={"permission": permission.value},
            )


@dataclass(frozen=True)
class IssuedToken:
    access_token: str
    expires_at: datetime


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def unix_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


class InvalidCredentials(Unauthenticated):
    code = "INVALID_CREDENTIALS"


def _parse_signed_payload(data: Any) -> dict[str, Any]:
    if not isinstance(data, str) or not data:
        raise ValidationFailed("data must be the signed JSON payload as a string", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data", "reason": "must be a non-empty string"})
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError) as exc:  # RecursionError: nesting too deep for the parser
        raise ValidationFailed("data is not valid JSON", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data", "reason": "is not valid JSON"}) from exc
    if not isinstance(payload, dict):
        raise ValidationFailed("data must be a JSON object", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data", "reason": "must be a JSON object"})
    for name in ("client_type", "client_id", "timestamp", "nonce"):
        if name not in payload:
            raise ValidationFailed(f"data.{name} is required", code="INVALID_TOKEN_REQUEST",
                                   details={"field": f"data.{name}", "reason": "is required"})
    if not isinstance(payload["client_type"], str) or payload["client_type"] not in CLIENT_TYPES:
        raise ValidationFailed("data.client_type must be device or user", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data.client_type", "reason": "must be device or user"})
    timestamp = payload["timestamp"]
    # Bounded, so that comparing it with the clock (a float) cannot overflow.
    if (not isinstance(timestamp, int) or isinstance(timestamp, bool)
            or not -_MAX_TIMESTAMP <= timestamp <= _MAX_TIMESTAMP):
        raise ValidationFailed("data.timestamp must be an integer (unix seconds)", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data.timestamp", "reason": "must be unix seconds"})
    nonce = payload["nonce"]
    if not isinstance(nonce, str) or not 8 <= len(nonce) <= 128:
        raise ValidationFailed("data.nonce must be a string of 8 to 128 characters", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data.nonce", "reason": "must be 8 to 128 characters"})
    if _NONCE_FORBIDDEN.search(nonce):
        # NUL and lone surrogates cannot even be stored; no control characters either.
        raise ValidationFailed("data.nonce must not contain control characters", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data.nonce", "reason": "must not contain control characters"})
    try:
        payload["client_id"] = uuid.UUID(str(payload["client_id"]))
    except ValueError as exc:
        raise ValidationFailed("data.client_id must be a UUID", code="INVALID_TOKEN_REQUEST",
                               details={"field": "data.client_id", "reason": "must be a UUID"}) from exc
    return payload


async def _client_key(client_type: str, client_id: uuid.UUID) -> tuple[User, Device | None, bytes] | None:
    """The user, device and Ed25519 public key that may sign for ``client_id``."""
    if client_type == "user":
        user = await User.get_or_none(id=client_id, user_type="api_user", status="active")
        if user is None or user.public_key is None:
            return None
        return user, None, bytes(user.public_key)
    device = await Device.get_or_none(id=client_id, status="active").prefetch_related("user")
    if device is None or device.user.status != "active":
        return None
    return device.user, device, bytes(device.public_key)


async def issue_access_token(*, data: Any, signature: Any) -> IssuedToken:
    """Verify a signed token request and issue an access token (runs in the caller's transaction)."""
    settings = get_settings()
    payload = _parse_signed_payload(data)
    if not isinstance(signature, str):
        raise ValidationFailed("signature must be a base64 string", code="INVALID_TOKEN_REQUEST",
                               details={"field": "signature", "reason": "must be a base64 string"})
    try:
        raw_signature = base64.b64decode(signature, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValidationFailed("signature must be base64", code="INVALID_TOKEN_REQUEST",
                               details={"field": "signature", "reason": "must be base64"}) from exc

    found = await _client_key(payload["client_type"], payload["client_id"])
    # An unknown client and a bad signature get the same answer: no client enumeration.
    if found is None:
        raise InvalidCredentials("the signature does not verify for this client")
    user, device, public_key = found
    try:
        VerifyKey(public_key).verify(data.encode(), raw_signature)
    except (BadSignatureError, ValueError) as exc:
        raise InvalidCredentials("the signature does not verify for this client") from exc

    now = clock.now()
    skew = abs(now.timestamp() - payload["timestamp"])
    if skew > settings.auth_timestamp_tolerance_seconds:
        raise Unauthenticated(
            "timestamp is more than 5 minutes away from server time; sync with GET /api/v2/auth/time",
            code="TIMESTAMP_OUT_OF_RANGE",
            details={"server_unix_seconds": str(int(now.timestamp())),
                     "tolerance_seconds": settings.auth_timestamp_tolerance_seconds},
        )
    if not await _remember_nonce(payload["client_id"], payload["nonce"], now, settings.auth_timestamp_tolerance_seconds):
        raise Unauthenticated("this nonce was already used", code="NONCE_REUSED")

    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    expires_at = now + timedelta(seconds=settings.token_ttl_seconds)
    await AccessToken.create(
        token_hash=hash_token(token),
        user=user,
        device=device,
        client_type=payload["client_type"],
        issued_at=now,
        expires_at=expires_at,
    )
    return IssuedToken(access_token=token, expires_at=expires_at)


async def _remember_nonce(client_id: uuid.UUID, nonce: str, now: datetime, tolerance: int) -> bool:
    """Record the nonce; False when it was seen before. Kept until a replay would fail on time anyway."""
    expires_at = now + timedelta(seconds=2 * tolerance)
    rows = await connections.get("default").execute_query_dict(
        "INSERT INTO auth_nonces (client_id, nonce, expires_at) VALUES ($1, $2, $3) "
        "ON CONFLICT (client_id, nonce) DO NOTHING RETURNING id",
        [client_id, nonce, expires_at],
    )
    return bool(rows)


async def _load_token(token: str) -> AccessToken | None:
    # One query for the token, its user and its device (a join, not one query per relation).
    record = await AccessToken.get_or_none(token_hash=hash_token(token)).select_related("user", "device")
    if record is None or record.revoked_at is not None or record.expires_at <= clock.now():
        return None
    if record.user.status != "active":
        return None
    if record.device is not None and record.device.status != "active":
        return None
    return record


async def _load_principal(token: str) -> Principal | None:
    record = await _load_token(token)
    if record is None:
        return None
    members = WorkspaceMember.filter(user_id=record.user.id)
    if record.device is not None:
        # A device acts only in the workspace it was paired to.
        members = members.filter(workspace_id=record.device.workspace_id)
    accesses = {
        m.workspace_id: Access(workspace_id=m.workspace_id, role=m.role, role_status=m.role_status)
        for m in await members
    }
    return Principal(user=record.user, token=record, device=record.device, accesses=accesses)


async def authenticate(token: str) -> Principal:
    """The principal behind a bearer token, or 401 when it is unknown, expired or revoked."""
    return (await authenticate_at_generation(token))[0]


async def authenticate_at_generation(token: str) -> tuple[Principal, int | None]:
    """:func:`authenticate`, and the revocation generation it was checked under (for
    :func:`resolve_workspace` in the same request: one read of the generation per request).

    Served from the per-process cache (domain/auth_cache.py) while the revocation generation,
    read after the call started, is the one the entry was loaded under, and while the token has
    not expired.
    """
    if not token.startswith(TOKEN_PREFIX):
        raise Unauthenticated("the access token is invalid or expired", code="INVALID_TOKEN")
    digest = hash_token(token)
    generation = await auth_cache.generation()
    principal = auth_cache.principals.get(digest, generation)
    if principal is None or principal.token.expires_at <= clock.now():
        principal = await _load_principal(token)
        if principal is None:
            raise Unauthenticated("the access token is invalid or expired", code="INVALID_TOKEN")
        auth_cache.principals.put(digest, generation, principal)
    return principal, generation


async def introspect(token: str) -> dict[str, Any]:
    """The token introspection result (RFC 7662 style: an unusable token is just inactive)."""
    settings = get_settings()
    try:
        principal = await authenticate(token)
    except DomainError:
        return {"active": False}
    user, record = principal.user, principal.token
    subject_type = "device" if principal.device is not None else user.user_type
    return {
        "active": True,
        "issuer": settings.token_issuer,
        "audience": [settings.token_audience],
        "jti": str(record.id),
        "subject": str(principal.device.id if principal.device else user.id),
        "subject_type": subject_type,
        "subject_uuid": str(user.id),
        "email": user.email or "",
        "issued_at": str(unix_ms(record.issued_at)),
        "expires_at": str(unix_ms(record.expires_at)),
        "accesses": [
            {
                "tenant_uuid": str(access.workspace_id),
                "role": access.role,
                "role_status": access.role_status,
                "permissions": sorted(p.value for p in access.permissions),
            }
            for access in principal.accesses.values()
        ],
    }


async def revoke_user_tokens(*, user_id: uuid.UUID) -> int:
    return await AccessToken.filter(user_id=user_id, revoked_at__isnull=True).update(revoked_at=clock.now())


async def resolve_workspace(principal: Principal, header_value: str | None, *,
                            generation: int | None = None) -> Workspace:
    """The workspace selected by ``X-Workspace-Id`` (or the caller's only one when absent).

    Unknown and foreign workspaces get the same 404, so a caller cannot probe for ids.
    ``generation``: the revocation generation the principal was authenticated under in this
    request (:func:`authenticate_at_generation`); read afresh when not given.
    """
    if header_value is None:
        if len(principal.accesses) == 1:
            (workspace_id,) = principal.accesses
        else:
            raise ValidationFailed(
                "X-Workspace-Id header is required: your token has access to "
                f"{len(principal.accesses)} workspaces",
                code="WORKSPACE_REQUIRED",
                details={"header": "X-Workspace-Id"},
            )
    else:
        # Only the canonical form (lowercase or uppercase hex, hyphens where RFC 9562 puts them):
        # braces, URNs, missing hyphens and surrounding spaces are refused, not read.
        if not _CANONICAL_UUID.fullmatch(header_value):
            raise ValidationFailed("X-Workspace-Id must be a UUID in its canonical form "
                                   "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)", code="INVALID_WORKSPACE_ID",
                                   details={"header": "X-Workspace-Id"})
        workspace_id = uuid.UUID(header_value)
    if workspace_id not in principal.accesses:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    if generation is None:
        generation = await auth_cache.generation()
    workspace = auth_cache.workspaces.get(workspace_id, generation)
    if workspace is None:
        workspace = await Workspace.get_or_none(id=workspace_id)
        if workspace is None:
            raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
        auth_cache.workspaces.put(workspace_id, generation, workspace)
    return workspace
