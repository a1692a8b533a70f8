"""Device pairing: a workspace user invites a device, the device registers its Ed25519 key,
the workspace owner compares the fingerprint and confirms.

Flow (documented in the README, paths under /api/v2/auth/devices):

1. ``initiate``: a member (any role that may use the mobile app, i.e. not VIEWER) asks for a
   pairing token, valid ``pairing_ttl_seconds`` (5 minutes), shown as a QR code.
2. ``register``: the device, holding only the pairing token, sends its public key. It becomes
   a device ``pending_confirmation`` and both sides show the key fingerprint.
3. ``confirm``: the workspace OWNER compares the fingerprint shown on the device with the one
   the service reports and confirms by sending it back. Only then may the device request
   access tokens (``client_type`` = ``device``); the key share is issued to it afterwards.

A device stays bound to its user's membership of the workspace: when the member is removed,
their devices there are ``revoked`` (:func:`revoke_member_devices`) and their tokens stop working.
A person invited by email pairs a first device with the pairing token the acceptance answers.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from nacl.bindings import crypto_core_ed25519_is_valid_point

from core import clock
from core.settings import get_settings
from domain import audit
from domain.auth import Principal, hash_token
from domain.errors import (
    Conflict,
    NotFound,
    PermissionDenied,
    ValidationFailed,
    field_error,
)
from domain.permissions import Permission, WorkspaceRole
from models.auth import AccessToken, Device, PairingSession

PAIRING_PREFIX = "cwp_"


def fingerprint(public_key: bytes) -> str:
    """Eight groups of four hex characters: the first 16 bytes of SHA-256 of the key."""
    digest = hashlib.sha256(public_key).hexdigest()[:32].upper()
    return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


@dataclass(frozen=True)
class PairingInvitation:
    pairing_token: str
    expires_at: datetime
    qr_data: str


async def initiate(*, principal: Principal, workspace_id: uuid.UUID) -> PairingInvitation:
    access = principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if access.role == WorkspaceRole.VIEWER:
        raise PermissionDenied("viewers cannot pair a signing device", code="PERMISSION_DENIED",
                               details={"role": access.role})
    if principal.device is not None:
        raise PermissionDenied("a device cannot pair another device", code="DEVICE_NOT_ALLOWED")
    return await start_pairing(workspace_id=workspace_id, user_id=principal.user.id)


async def start_pairing(*, workspace_id: uuid.UUID, user_id: uuid.UUID) -> PairingInvitation:
    """A pairing token for a device of ``user_id`` in the workspace (the member's own request,
    or the acceptance of an invitation, which is how a new person pairs a first device)."""
    settings = get_settings()
    token = PAIRING_PREFIX + secrets.token_urlsafe(24)
    expires_at = clock.now() + timedelta(seconds=settings.pairing_ttl_seconds)
    session = await PairingSession.create(
        token_hash=hash_token(token), workspace_id=workspace_id, user_id=user_id, expires_at=expires_at
    )
    await audit.record(action="device.pairing_initiated", object_type="pairing", object_id=session.id,
                       actor_id=user_id, workspace_id=workspace_id)
    qr_data = json.dumps(
        {"v": 1, "base_url": settings.base_url, "tenant_uuid": str(workspace_id), "pairing_token": token},
        separators=(",", ":"),
    )
    return PairingInvitation(pairing_token=token, expires_at=expires_at, qr_data=qr_data)


async def register(*, pairing_token: str, public_key: bytes, name: str) -> Device:
    """The device's call: bind its public key to the pairing session (no bearer token)."""
    if not crypto_core_ed25519_is_valid_point(public_key):
        raise field_error("public_key", "is not a valid Ed25519 public key")
    session = await PairingSession.filter(token_hash=hash_token(pairing_token)).select_for_update().first()
    if session is None or session.expires_at <= clock.now():
        raise ValidationFailed("the pairing token is invalid or expired", code="PAIRING_TOKEN_INVALID")
    if session.device_id is not None:  # type: ignore[attr-defined]
        raise Conflict("this pairing token was already used", code="PAIRING_TOKEN_USED")
    device = await Device.create(
        user_id=session.user_id,  # type: ignore[attr-defined]
        workspace_id=session.workspace_id,  # type: ignore[attr-defined]
        name=name,
        public_key=public_key,
        fingerprint=fingerprint(public_key),
    )
    session.device = device
    await session.save(update_fields=["device_id"])
    await audit.record(action="device.registered", object_type="device", object_id=device.id, actor_id=None,
                       workspace_id=device.workspace_id, details={"fingerprint": device.fingerprint})  # type: ignore[attr-defined]
    return device


async def get(*, principal: Principal, device_id: uuid.UUID) -> Device:
    device = await Device.get_or_none(id=device_id)
    if device is None or principal.access_to(device.workspace_id) is None:  # type: ignore[attr-defined]
        raise NotFound("device not found", code="DEVICE_NOT_FOUND")
    if device.user_id != principal.user.id:  # type: ignore[attr-defined]
        principal.require(device.workspace_id, Permission.MANAGE_DEVICES)  # type: ignore[attr-defined]
    return device


async def confirm(*, principal: Principal, device_id: uuid.UUID, fingerprint_seen: str) -> Device:
    """The owner confirms the fingerprint they compared; the device becomes active."""
    device = await Device.filter(id=device_id).select_for_update().first()
    if device is None or principal.access_to(device.workspace_id) is None:  # type: ignore[attr-defined]
        raise NotFound("device not found", code="DEVICE_NOT_FOUND")
    principal.require(device.workspace_id, Permission.MANAGE_DEVICES)  # type: ignore[attr-defined]
    if device.status != "pending_confirmation":
        raise Conflict(f"device is {device.status}, not waiting for confirmation", code="DEVICE_NOT_PENDING")
    normalized = "".join(fingerprint_seen.split()).upper()
    if normalized != device.fingerprint.replace(" ", ""):
        raise ValidationFailed("the fingerprint does not match the device's key", code="DEVICE_FINGERPRINT_MISMATCH",
                               details={"field": "fingerprint"})
    device.status = "active"
    device.confirmed_at = clock.now()
    device.confirmed_by = principal.user
    await device.save()
    await audit.record(action="device.confirmed", object_type="device", object_id=device.id,
                       actor_id=principal.user.id, workspace_id=device.workspace_id)  # type: ignore[attr-defined]
    return device


async def revoke_member_devices(*, workspace_id: uuid.UUID, user_id: uuid.UUID) -> int:
    """A member leaves the workspace: every device of theirs paired there is revoked (its tokens
    stop working at once) and their unused pairing tokens there die. Returns the devices revoked."""
    now = clock.now()
    device_ids = await Device.filter(workspace_id=workspace_id, user_id=user_id).exclude(
        status="revoked").values_list("id", flat=True)
    if device_ids:
        await Device.filter(id__in=list(device_ids)).update(status="revoked", updated_at=now)
        await AccessToken.filter(device_id__in=list(device_ids), revoked_at__isnull=True).update(revoked_at=now)
    await PairingSession.filter(workspace_id=workspace_id, user_id=user_id, device_id__isnull=True,
                                expires_at__gt=now).update(expires_at=now)
    for device_id in device_ids:
        await audit.record(action="device.revoked", object_type="device", object_id=device_id, actor_id=None,
                           workspace_id=workspace_id, details={"reason": "member removed"})
    return len(device_ids)
