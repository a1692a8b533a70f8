"""Device pairing: /api/v2/auth/devices (initiate, register, read, confirm)."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import principal
from api.contract import endpoint
from api.schemas.auth import key_bytes
from api.schemas.devices import Device, DeviceConfirm, DeviceRegister, PairingInitiate, PairingInvitation
from core.unit_of_work import unit_of_work
from domain import devices
from domain.auth import unix_ms

bp = Blueprint("devices", url_prefix="/api/v2/auth/devices")

_NOT_FOUND = {404: ["DEVICE_NOT_FOUND"]}


@bp.post("/pairing/initiate")
@endpoint(summary="Create a pairing token and QR data for a new device (valid 5 minutes); any member but VIEWER",
          tag="devices", body=PairingInitiate, responses={200: PairingInvitation},
          errors={403: ["PERMISSION_DENIED", "DEVICE_NOT_ALLOWED"], 404: ["WORKSPACE_NOT_FOUND"]})
async def initiate_pairing(request: Request, body: PairingInitiate) -> PairingInvitation:
    caller = await principal(request)
    async with unit_of_work():
        invitation = await devices.initiate(principal=caller, workspace_id=body.tenant_uuid)
    return PairingInvitation(expires_at=unix_ms(invitation.expires_at), pairing_token=invitation.pairing_token,
                             qr_data=invitation.qr_data)


@bp.post("/pairing/register")
@endpoint(summary="Device: register its Ed25519 public key with the pairing token (no bearer)", tag="devices",
          body=DeviceRegister, responses={201: Device}, auth=False,
          errors={400: ["VALIDATION_ERROR", "PAIRING_TOKEN_INVALID"], 409: ["PAIRING_TOKEN_USED"]})
async def register_device(request: Request, body: DeviceRegister) -> Device:
    async with unit_of_work():
        device = await devices.register(pairing_token=body.pairing_token, public_key=key_bytes(body.public_key),
                                        name=body.name or "device")
    return Device.of(device)


@bp.get("/<device_id:uuid>")
@endpoint(summary="A device and its key fingerprint (its user, or MANAGE_DEVICES)", tag="devices",
          responses={200: Device}, errors={403: ["PERMISSION_DENIED"], **_NOT_FOUND})
async def read_device(request: Request, device_id: uuid.UUID) -> Device:
    caller = await principal(request)
    return Device.of(await devices.get(principal=caller, device_id=device_id))


@bp.post("/<device_id:uuid>/confirm")
@endpoint(summary="Owner: confirm the fingerprint shown on the device; the device becomes active (MANAGE_DEVICES)",
          tag="devices", body=DeviceConfirm, responses={200: Device},
          errors={400: ["DEVICE_FINGERPRINT_MISMATCH"], 403: ["PERMISSION_DENIED"], **_NOT_FOUND,
                  409: ["DEVICE_NOT_PENDING"]})
async def confirm_device(request: Request, device_id: uuid.UUID, body: DeviceConfirm) -> Device:
    caller = await principal(request)
    async with unit_of_work():
        device = await devices.confirm(principal=caller, device_id=device_id, fingerprint_seen=body.fingerprint)
    return Device.of(device)
