"""Device pairing: /api/v2/auth/devices (initiate, register, read, confirm)."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import iso, json_body, principal
from core.unit_of_work import unit_of_work
from domain import devices
from domain import validation as v
from domain.auth import unix_ms
from models.auth import Device

bp = Blueprint("devices", url_prefix="/api/v2/auth/devices")


def serialize(device: Device) -> dict:
    return {
        "device_id": str(device.id),
        "workspace_id": str(device.workspace_id),  # type: ignore[attr-defined]
        "user_id": str(device.user_id),  # type: ignore[attr-defined]
        "name": device.name,
        "fingerprint": device.fingerprint,
        "status": device.status,
        "created_at": iso(device.created_at),
        "confirmed_at": iso(device.confirmed_at),
    }


@bp.post("/pairing/initiate")
@openapi.summary("Create a pairing token and QR data for a new device (valid 5 minutes)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"tenant_uuid": str}})
async def initiate(request: Request) -> HTTPResponse:
    caller = await principal(request)
    body = json_body(request)
    workspace_id = v.uuid_value(body.get("tenant_uuid"), "tenant_uuid")
    async with unit_of_work():
        invitation = await devices.initiate(principal=caller, workspace_id=workspace_id)
    return json({"expires_at": unix_ms(invitation.expires_at), "pairing_token": invitation.pairing_token,
                 "qr_data": invitation.qr_data})


@bp.post("/pairing/register")
@openapi.summary("Device: register its Ed25519 public key with the pairing token (no bearer)")
@openapi.body({"application/json": {"pairing_token": str, "public_key": str, "name": str}})
async def register(request: Request) -> HTTPResponse:
    body = json_body(request)
    token = v.string(body, "pairing_token", max_len=200)
    public_key = v.base64_bytes(body, "public_key", length=32)
    name = v.string(body, "name", required=False, max_len=100) or "device"
    async with unit_of_work():
        device = await devices.register(pairing_token=token, public_key=public_key, name=name)  # type: ignore[arg-type]
    return json(serialize(device), status=201)


@bp.get("/<device_id:uuid>")
@openapi.summary("A device and its key fingerprint")
@openapi.secured("BearerAuth")
async def read(request: Request, device_id: uuid.UUID) -> HTTPResponse:
    caller = await principal(request)
    return json(serialize(await devices.get(principal=caller, device_id=device_id)))


@bp.post("/<device_id:uuid>/confirm")
@openapi.summary("Owner: confirm the fingerprint shown on the device; the device becomes active")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"fingerprint": str}})
async def confirm(request: Request, device_id: uuid.UUID) -> HTTPResponse:
    caller = await principal(request)
    fingerprint = v.string(json_body(request), "fingerprint", max_len=64)
    async with unit_of_work():
        device = await devices.confirm(principal=caller, device_id=device_id, fingerprint_seen=fingerprint)  # type: ignore[arg-type]
    return json(serialize(device))
