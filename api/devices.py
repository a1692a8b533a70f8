"""Devices: /api/v2/auth/devices (pairing, the owner's confirmation, the list, the owner's enrollment)."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import principal
from api.contract import endpoint
from api.schemas.auth import key_bytes
from api.schemas.devices import (
    Device,
    DeviceConfirm,
    DeviceList,
    DeviceListQuery,
    DeviceRegister,
    OwnerEnrollmentCancel,
    OwnerEnrollmentCancelled,
    PairingInitiate,
    PairingInvitation,
)
from core.unit_of_work import unit_of_work
from domain import devices

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
    return PairingInvitation.of(invitation)


@bp.post("/pairing/register")
@endpoint(summary="Device: register its Ed25519 public key with the pairing token (no bearer)", tag="devices",
          description="The token is a pairing token, or the owner's enrollment secret (cwo_...): the operator "
                      "then confirms that device (custody owner confirm-device) after comparing its fingerprint "
                      "with the owner.",
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
          errors={400: ["DEVICE_FINGERPRINT_MISMATCH"], 403: ["PERMISSION_DENIED", "DEVICE_CONFIRMED_BY_OPERATOR"],
                  **_NOT_FOUND, 409: ["DEVICE_NOT_PENDING"]})
async def confirm_device(request: Request, device_id: uuid.UUID, body: DeviceConfirm) -> Device:
    caller = await principal(request)
    async with unit_of_work():
        device = await devices.confirm(principal=caller, device_id=device_id, fingerprint_seen=body.fingerprint)
    return Device.of(device)


@bp.get("")
@endpoint(summary="The workspace's devices (MANAGE_DEVICES: every one, to find those to confirm), else the "
                  "caller's own", tag="devices", query=DeviceListQuery, responses={200: DeviceList},
          errors={404: ["WORKSPACE_NOT_FOUND"]})
async def list_devices(request: Request, query: DeviceListQuery) -> DeviceList:
    caller = await principal(request)
    found = await devices.list_devices(principal=caller, workspace_id=query.tenant_uuid, status=query.status)
    return DeviceList(devices=[Device.of(d) for d in found])


@bp.post("/owner-enrollment/cancel")
@endpoint(summary="Owner, from the paired device: end pending enrollments of an owner device (a recovery you "
                  "did not ask for)", tag="devices", body=OwnerEnrollmentCancel,
          responses={200: OwnerEnrollmentCancelled},
          errors={403: ["PERMISSION_DENIED", "DEVICE_REQUIRED"], 404: ["WORKSPACE_NOT_FOUND"]})
async def cancel_owner_enrollment(request: Request, body: OwnerEnrollmentCancel) -> OwnerEnrollmentCancelled:
    caller = await principal(request)
    async with unit_of_work():
        cancelled = await devices.cancel_owner_enrollment(principal=caller, workspace_id=body.tenant_uuid)
    return OwnerEnrollmentCancelled(cancelled=cancelled)
