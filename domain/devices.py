"""Devices: a member's device is paired, the owner confirms it; the owner's own device is enrolled
with a secret from the operator, who confirms it.

Pairing a member's device (paths under /api/v2/auth/devices, docs/users.md):

1. ``initiate``: a member whose role uses a device (every role but VIEWER) asks for a pairing
   token, valid ``PAIRING_TTL_SECONDS`` (5 minutes), shown as a QR code; a person gets one when
   accepting an invitation.
2. ``register``: the device, holding only the token, sends its public key. It becomes a device
   ``pending_confirmation`` and both sides show its fingerprint (eight groups of four hex
   characters: the first 16 bytes of SHA-256 of the key).
3. ``confirm``: the workspace OWNER (MANAGE_DEVICES) compares the fingerprint shown on the device
   with the one the service reports and sends it back. Only then may the device request access
   tokens (``client_type`` device).

Enrolling the owner's device (nobody in the workspace can confirm the first one, so the operator does):

1. :func:`start_owner_enrollment`: ``custody bootstrap``, ``custody owner enroll`` or the
   acceptance of an owner invitation issues a one-time **enrollment secret** (``cwo_…``, only its
   SHA-256 stored) for the workspace's OWNER, valid ``OWNER_ENROLLMENT_TTL_SECONDS`` (72 h). A new
   one ends the owner's earlier unused ones and revokes devices they registered but nobody
   confirmed. It is audited and announced to the owner by email.
2. ``register`` with the secret, as above: the device is ``pending_confirmation``.
3. :func:`confirm_owner_device`: the **operator** (``custody owner confirm-device``, which needs the
   service's database) compares the fingerprint the owner reads from the device, over a channel
   other than the one that carried the secret (a call, in person), and types it. The device
   becomes active; audited, and announced to the owner and the administrators. The owner cannot
   confirm it over HTTP (403 DEVICE_CONFIRMED_BY_OPERATOR): the secret alone must never be enough.

**Recovery** (the owner lost their device): the operator issues a new enrollment. When the owner
still has an active device it is a *recovery*: announced to the owner and the administrators at
once, and confirmable only ``OWNER_RECOVERY_DELAY_SECONDS`` (48 h) later, so that an owner who did
not ask for it cancels it from their device (:func:`cancel_owner_enrollment`). Confirming the new
device revokes every other device of the owner in the workspace.

A device stays bound to its user's membership and role: when the member is removed, or their role
becomes one that uses no device (VIEWER), their devices there are revoked (:func:`revoke_devices`:
tokens stop working at once, new ones are refused) and their unused pairing tokens die.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable

from nacl.bindings import crypto_core_ed25519_is_valid_point

from core import clock
from core.clock import rfc3339
from core.settings import get_settings
from domain import audit, notifications
from domain.auth import Principal, hash_token
from domain.errors import (
    Conflict,
    NotFound,
    PermissionDenied,
    ValidationFailed,
    field_error,
)
from domain.permissions import Permission, WorkspaceRole, uses_device
from models.auth import AccessToken, Device, PairingSession
from models.users import User, WorkspaceMember

PAIRING_PREFIX = "cwp_"
OWNER_ENROLLMENT_PREFIX = "cwo_"
#: Kinds of pairing session.
DEVICE, OWNER_ENROLLMENT = "device", "owner_enrollment"
DEVICE_STATUSES = ("pending_confirmation", "active", "revoked")
LIST_LIMIT = 200


def fingerprint(public_key: bytes) -> str:
    """Eight groups of four hex characters: the first 16 bytes of SHA-256 of the key."""
    digest = hashlib.sha256(public_key).hexdigest()[:32].upper()
    return " ".join(digest[i : i + 4] for i in range(0, 32, 4))


def _same_fingerprint(seen: str, device: Device) -> bool:
    return "".join(seen.split()).upper() == device.fingerprint.replace(" ", "")


def _mismatch() -> ValidationFailed:
    return ValidationFailed("the fingerprint does not match the device's key", code="DEVICE_FINGERPRINT_MISMATCH",
                            details={"field": "fingerprint"})


def _not_found() -> NotFound:
    return NotFound("device not found", code="DEVICE_NOT_FOUND")


@dataclass(frozen=True)
class PairingInvitation:
    """A pairing token (``kind`` device) or an owner enrollment secret (``kind`` owner_enrollment)."""

    pairing_token: str
    expires_at: datetime
    qr_data: str
    kind: str = DEVICE
    #: A recovery enrollment: its device can be confirmed from then on only.
    not_before: datetime | None = None


def _qr_data(workspace_id: uuid.UUID, token: str) -> str:
    return json.dumps({"v": 1, "base_url": get_settings().base_url, "tenant_uuid": str(workspace_id),
                       "pairing_token": token}, separators=(",", ":"))


def _who(user: User) -> str:
    return user.email or user.api_user_name or str(user.id)


# --- pairing a member's device ---------------------------------------------------------------------


async def initiate(*, principal: Principal, workspace_id: uuid.UUID) -> PairingInvitation:
    access = principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    if not uses_device(access.role):
        raise PermissionDenied("viewers cannot pair a signing device", code="PERMISSION_DENIED",
                               details={"role": access.role})
    if principal.device is not None:
        raise PermissionDenied("a device cannot pair another device", code="DEVICE_NOT_ALLOWED")
    return await start_pairing(workspace_id=workspace_id, user_id=principal.user.id)


async def start_pairing(*, workspace_id: uuid.UUID, user_id: uuid.UUID) -> PairingInvitation:
    """A pairing token for a device of ``user_id`` in the workspace (the member's own request,
    or the acceptance of an invitation, which is how a new person pairs a first device)."""
    token = PAIRING_PREFIX + secrets.token_urlsafe(24)
    expires_at = clock.now() + timedelta(seconds=get_settings().pairing_ttl_seconds)
    session = await PairingSession.create(token_hash=hash_token(token), workspace_id=workspace_id, user_id=user_id,
                                          expires_at=expires_at, kind=DEVICE)
    await audit.record(action="device.pairing_initiated", object_type="pairing", object_id=session.id,
                       actor_id=user_id, workspace_id=workspace_id)
    return PairingInvitation(pairing_token=token, expires_at=expires_at, qr_data=_qr_data(workspace_id, token))


async def register(*, pairing_token: str, public_key: bytes, name: str) -> Device:
    """The device's call: bind its public key to the pairing session or owner enrollment (no bearer)."""
    if not crypto_core_ed25519_is_valid_point(public_key):
        raise field_error("public_key", "is not a valid Ed25519 public key")
    session = await PairingSession.filter(token_hash=hash_token(pairing_token)).select_for_update().first()
    if session is None or session.expires_at <= clock.now():
        raise ValidationFailed("the pairing token is invalid or expired", code="PAIRING_TOKEN_INVALID")
    if session.device_id is not None:
        raise Conflict("this pairing token was already used", code="PAIRING_TOKEN_USED")
    workspace_id: uuid.UUID = session.workspace_id
    user_id: uuid.UUID = session.user_id
    membership = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=user_id)
    owner_enrollment = session.kind == OWNER_ENROLLMENT
    # The token's holder must still be a member whose role uses a device (the owner, for an enrollment).
    if membership is None or not uses_device(membership.role) or (
            owner_enrollment and membership.role != WorkspaceRole.OWNER):
        raise ValidationFailed("the pairing token is invalid or expired", code="PAIRING_TOKEN_INVALID")
    device = await Device.create(user_id=user_id, workspace_id=workspace_id, name=name, public_key=public_key,
                                 fingerprint=fingerprint(public_key))
    session.device = device
    await session.save(update_fields=["device_id"])
    await audit.record(action="device.registered", object_type="device", object_id=device.id, actor_id=None,
                       workspace_id=workspace_id,
                       details={"fingerprint": device.fingerprint, "user_id": str(user_id),
                                "owner_enrollment": owner_enrollment})
    if owner_enrollment:
        owner = await User.get(id=user_id)
        await notifications.email(
            to=[owner.email] if owner.email else [], workspace_id=workspace_id,
            subject="A device registered with your owner enrollment",
            body=(f"The device {name!r} registered with your owner enrollment secret. Its fingerprint is\n\n"
                  f"    {device.fingerprint}\n\n"
                  "The operator confirms it only after comparing this fingerprint with the one your device shows,\n"
                  "by a call or in person. If you did not register it, tell the operator and do not confirm it.\n"))
    return device


async def get(*, principal: Principal, device_id: uuid.UUID) -> Device:
    device = await Device.get_or_none(id=device_id)
    if device is None or principal.access_to(device.workspace_id) is None:
        raise _not_found()
    if device.user_id != principal.user.id:
        principal.require(device.workspace_id, Permission.MANAGE_DEVICES)
    return device


async def list_devices(*, principal: Principal, workspace_id: uuid.UUID, status: str | None) -> list[Device]:
    """The workspace's devices (MANAGE_DEVICES: the owner sees whom to confirm), or the caller's own."""
    access = principal.access_to(workspace_id)
    if access is None:
        raise NotFound("workspace not found", code="WORKSPACE_NOT_FOUND")
    query = Device.filter(workspace_id=workspace_id)
    if Permission.MANAGE_DEVICES not in access.permissions:
        query = query.filter(user_id=principal.user.id)
    if status is not None:
        query = query.filter(status=status)
    return list(await query.order_by("-created_at", "-id").limit(LIST_LIMIT))


async def _enrollment_of(device: Device) -> PairingSession | None:
    """The owner enrollment that registered ``device`` (None: a member's pairing)."""
    return await PairingSession.get_or_none(device_id=device.id, kind=OWNER_ENROLLMENT)


async def confirm(*, principal: Principal, device_id: uuid.UUID, fingerprint_seen: str) -> Device:
    """The owner confirms the fingerprint they compared; the device becomes active."""
    device = await Device.filter(id=device_id).select_for_update().first()
    if device is None or principal.access_to(device.workspace_id) is None:
        raise _not_found()
    principal.require(device.workspace_id, Permission.MANAGE_DEVICES)
    if device.status != "pending_confirmation":
        raise Conflict(f"device is {device.status}, not waiting for confirmation", code="DEVICE_NOT_PENDING")
    if await _enrollment_of(device) is not None:
        raise PermissionDenied("the owner's device is confirmed by the operator (custody owner confirm-device), "
                               "never with the enrollment secret alone", code="DEVICE_CONFIRMED_BY_OPERATOR")
    if not _same_fingerprint(fingerprint_seen, device):
        raise _mismatch()
    device.status = "active"
    device.confirmed_at = clock.now()
    device.confirmed_by = principal.user
    await device.save()
    await audit.record(action="device.confirmed", object_type="device", object_id=device.id,
                       actor_id=principal.user.id, workspace_id=device.workspace_id,
                       details={"fingerprint": device.fingerprint, "user_id": str(device.user_id)})
    return device


# --- the owner's device --------------------------------------------------------------------------


async def _owner_of(workspace_id: uuid.UUID) -> WorkspaceMember:
    owner = await WorkspaceMember.filter(workspace_id=workspace_id, role=WorkspaceRole.OWNER) \
        .select_for_update().prefetch_related("user").first()
    if owner is None:
        raise NotFound("the workspace has no owner", code="OWNER_NOT_FOUND")
    if owner.user.user_type != "user" or owner.user.status != "active":
        raise Conflict("the workspace's owner is not an active person; only a person enrolls a device",
                       code="OWNER_NOT_A_PERSON")
    return owner


async def start_owner_enrollment(*, workspace_id: uuid.UUID) -> PairingInvitation:
    """A one-time enrollment secret for the owner's device (the operator's, or the owner
    invitation's): a first enrollment, or a recovery when the owner still has an active device."""
    settings = get_settings()
    owner = await _owner_of(workspace_id)
    user: User = owner.user
    now = clock.now()
    # Only the newest enrollment counts: earlier unused ones end, their unconfirmed devices go.
    await PairingSession.filter(workspace_id=workspace_id, user_id=user.id, kind=OWNER_ENROLLMENT,
                                device_id__isnull=True, expires_at__gt=now).update(expires_at=now)
    await _revoke_unconfirmed_enrollment_devices(workspace_id, user.id, reason="superseded by a new enrollment")
    recovery = await Device.exists(workspace_id=workspace_id, user_id=user.id, status="active")
    not_before = now + timedelta(seconds=settings.owner_recovery_delay_seconds) if recovery else None
    expires_at = (not_before or now) + timedelta(seconds=settings.owner_enrollment_ttl_seconds)
    token = OWNER_ENROLLMENT_PREFIX + secrets.token_urlsafe(32)
    session = await PairingSession.create(token_hash=hash_token(token), workspace_id=workspace_id, user_id=user.id,
                                          expires_at=expires_at, kind=OWNER_ENROLLMENT, not_before=not_before)
    details = {"owner_id": str(user.id), "recovery": recovery, "expires_at": rfc3339(expires_at),
               "not_before": rfc3339(not_before) if not_before else None}
    await audit.record(action="device.owner_enrollment_started", object_type="pairing", object_id=session.id,
                       actor_id=None, workspace_id=workspace_id, details=details)
    if recovery:
        await notifications.announce_to_admins(
            workspace_id=workspace_id, action="device.owner_enrollment_started",
            subject="Recovery of the owner's device started",
            body=(f"The operator issued an enrollment for a new device of the owner {_who(user)}. Once confirmed, at "
                  f"the earliest {rfc3339(not_before)}, it replaces every other device of the owner here.\n\n"
                  "If the owner did not ask for it, cancel it from the owner's device: POST "
                  "/api/v2/auth/devices/owner-enrollment/cancel.\n"),
            details=details)
    else:
        await notifications.email(
            to=[user.email] if user.email else [], workspace_id=workspace_id,
            subject="An enrollment for your owner device was issued",
            body=(f"An enrollment secret for your device as the owner of this workspace was issued; it expires at "
                  f"{rfc3339(expires_at)}. The operator hands it to you. Register your device with it; the operator\n"
                  "then confirms the fingerprint your device shows with you. If you expected none, tell the operator.\n"))
    return PairingInvitation(pairing_token=token, expires_at=expires_at, qr_data=_qr_data(workspace_id, token),
                             kind=OWNER_ENROLLMENT, not_before=not_before)


@dataclass(frozen=True)
class OwnerDevice:
    """An owner's device as the operator sees it (``custody owner devices``)."""

    device: Device
    #: Registered through an owner enrollment (the operator confirms it).
    enrolled: bool
    not_before: datetime | None
    enrollment_expires_at: datetime | None


async def owner_devices(*, workspace_id: uuid.UUID) -> list[OwnerDevice]:
    """The owner's devices in the workspace, newest first (operator tooling)."""
    owner = await WorkspaceMember.get_or_none(workspace_id=workspace_id, role=WorkspaceRole.OWNER)
    if owner is None:
        raise NotFound("the workspace has no owner", code="OWNER_NOT_FOUND")
    found = await Device.filter(workspace_id=workspace_id, user_id=owner.user_id).order_by("-created_at", "-id")
    sessions = {s.device_id: s for s in await PairingSession.filter(
        device_id__in=[d.id for d in found], kind=OWNER_ENROLLMENT)}
    return [OwnerDevice(device=d, enrolled=d.id in sessions,
                        not_before=sessions[d.id].not_before if d.id in sessions else None,
                        enrollment_expires_at=sessions[d.id].expires_at if d.id in sessions else None)
            for d in found]


@dataclass(frozen=True)
class OwnerDeviceConfirmed:
    device: Device
    #: The owner's other devices, revoked by the confirmation (a recovery).
    revoked: list[uuid.UUID]


async def confirm_owner_device(*, workspace_id: uuid.UUID, device_id: uuid.UUID,
                               fingerprint_seen: str) -> OwnerDeviceConfirmed:
    """The operator confirms the owner's enrolled device after comparing its fingerprint with the
    owner out of band (``custody owner confirm-device``). Every other device of the owner in the
    workspace is revoked; audited and announced."""
    device = await Device.filter(id=device_id, workspace_id=workspace_id).select_for_update().first()
    if device is None:
        raise _not_found()
    session = await _enrollment_of(device)
    if session is None:
        raise Conflict("this device was not registered with an owner enrollment; the owner confirms it "
                       "(POST /api/v2/auth/devices/{id}/confirm)", code="DEVICE_NOT_ENROLLED")
    owner = await _owner_of(workspace_id)
    if owner.user_id != device.user_id:
        raise Conflict("the device's user is no longer the workspace's owner", code="OWNER_CHANGED")
    if device.status != "pending_confirmation":
        raise Conflict(f"device is {device.status}, not waiting for confirmation", code="DEVICE_NOT_PENDING")
    now = clock.now()
    if session.not_before is not None and now < session.not_before:
        raise Conflict(f"a recovery can be confirmed from {rfc3339(session.not_before)} on, so that the owner can "
                       "object first", code="OWNER_RECOVERY_DELAY",
                       details={"not_before": rfc3339(session.not_before)})
    if session.expires_at <= now:
        raise Conflict("the enrollment expired before its device was confirmed: issue a new one "
                       "(custody owner enroll)", code="OWNER_ENROLLMENT_EXPIRED")
    if not _same_fingerprint(fingerprint_seen, device):
        raise _mismatch()
    device.status = "active"
    device.confirmed_at = now
    device.confirmed_by = None
    await device.save()
    revoked = await revoke_devices(workspace_id=workspace_id, user_id=owner.user.id, keep=[device.id],
                                   reason="replaced by the owner's recovered device")
    details = {"fingerprint": device.fingerprint, "owner_id": str(owner.user.id), "confirmed_by": "operator",
               "owner_enrollment": True, "revoked_device_ids": [str(d) for d in revoked]}
    await audit.record(action="device.confirmed", object_type="device", object_id=device.id, actor_id=None,
                       workspace_id=workspace_id, details=details)
    replaced = f"; {len(revoked)} earlier device(s) of the owner were revoked" if revoked else ""
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action="device.owner_device_confirmed",
        subject="The owner's device was confirmed",
        body=(f"The operator confirmed the device {device.name!r} of the owner {_who(owner.user)} (fingerprint "
              f"{device.fingerprint}){replaced}. If the owner did not enroll it, contact the operator at once.\n"),
        details=details)
    return OwnerDeviceConfirmed(device=device, revoked=revoked)


async def cancel_owner_enrollment(*, principal: Principal, workspace_id: uuid.UUID) -> int:
    """The owner, from an active device, ends every pending enrollment of theirs (a recovery they did
    not ask for) and revokes the devices those registered. Returns how many enrollments ended."""
    principal.require(workspace_id, Permission.MANAGE_DEVICES)
    if principal.device is None:
        raise PermissionDenied("cancel from your paired device", code="DEVICE_REQUIRED")
    now = clock.now()
    pending = await PairingSession.filter(workspace_id=workspace_id, user_id=principal.user.id, kind=OWNER_ENROLLMENT,
                                          expires_at__gt=now).select_for_update()
    devices_of = [s.device_id for s in pending if s.device_id is not None]
    unconfirmed = await Device.filter(id__in=devices_of, status="pending_confirmation").values_list("id", flat=True)
    live = [s for s in pending if s.device_id is None or s.device_id in unconfirmed]
    if not live:
        return 0
    await PairingSession.filter(id__in=[s.id for s in live]).update(expires_at=now)
    await revoke_devices(workspace_id=workspace_id, user_id=principal.user.id, only=list(unconfirmed),  # type: ignore[arg-type]  # flat values_list
                         reason="owner enrollment cancelled by the owner")
    details = {"enrollments": len(live), "device_id": str(principal.device.id)}
    await audit.record(action="device.owner_enrollment_cancelled", object_type="workspace", object_id=workspace_id,
                       actor_id=principal.user.id, actor_type="device", workspace_id=workspace_id, details=details)
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action="device.owner_enrollment_cancelled",
        subject="The owner cancelled a device enrollment",
        body=f"The owner {_who(principal.user)} cancelled {len(live)} pending enrollment(s) of an owner device.\n",
        details=details)
    return len(live)


# --- revocation ------------------------------------------------------------------------------------


async def _revoke_unconfirmed_enrollment_devices(workspace_id: uuid.UUID, user_id: uuid.UUID, *, reason: str) -> None:
    enrolled = await PairingSession.filter(workspace_id=workspace_id, user_id=user_id, kind=OWNER_ENROLLMENT,
                                           device_id__isnull=False).values_list("device_id", flat=True)
    pending = await Device.filter(id__in=list(enrolled), status="pending_confirmation").values_list("id", flat=True)
    if pending:
        await revoke_devices(workspace_id=workspace_id, user_id=user_id, only=list(pending), reason=reason)  # type: ignore[arg-type]  # flat values_list


async def revoke_devices(*, workspace_id: uuid.UUID, user_id: uuid.UUID, reason: str,
                         keep: Iterable[uuid.UUID] = (), only: Iterable[uuid.UUID] | None = None,
                         end_pairings: bool = False) -> list[uuid.UUID]:
    """Revoke a user's devices in one workspace (all of them but ``keep``, or ``only`` those): the
    device can no longer request tokens and its tokens stop working at once. ``end_pairings`` also
    ends the user's unused pairing tokens there. Each revocation is audited with ``reason``.

    The one place a device loses its rights: a member removed, a role that uses no device, an
    owner device replaced or an enrollment cancelled. Returns the devices revoked."""
    now = clock.now()
    query = Device.filter(workspace_id=workspace_id, user_id=user_id).exclude(status="revoked")
    kept = list(keep)
    if kept:
        query = query.exclude(id__in=kept)
    if only is not None:
        query = query.filter(id__in=list(only))
    device_ids = list(await query.values_list("id", flat=True))
    if device_ids:
        await Device.filter(id__in=device_ids).update(status="revoked", updated_at=now)
        await AccessToken.filter(device_id__in=device_ids, revoked_at__isnull=True).update(revoked_at=now)
    if end_pairings:
        await PairingSession.filter(workspace_id=workspace_id, user_id=user_id, device_id__isnull=True,
                                    expires_at__gt=now).update(expires_at=now)
    if device_ids:
        await audit.record_each(action="device.revoked", object_type="device", actor_id=None,
                                workspace_id=workspace_id,
                                objects=[(device_id, {"reason": reason, "user_id": str(user_id)})  # type: ignore[misc]  # flat values_list
                                         for device_id in device_ids])
    return device_ids  # type: ignore[return-value]  # flat values_list


async def revoke_member_devices(*, workspace_id: uuid.UUID, user_id: uuid.UUID,
                                reason: str = "member removed") -> int:
    """A member leaves the workspace, or takes a role that uses no device: every device of theirs
    there is revoked and their unused pairing tokens there die. Returns the devices revoked."""
    return len(await revoke_devices(workspace_id=workspace_id, user_id=user_id, reason=reason, end_pairings=True))
