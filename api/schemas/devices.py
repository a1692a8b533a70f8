"""Device pairing requests and responses (/api/v2/auth/devices)."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.auth import Ed25519PublicKey
from api.schemas.common import Name, QueryParams, RequestBody, Resource, Timestamp, text
from domain import devices
from domain.auth import unix_ms
from models.auth import Device as DeviceRow

DeviceStatus = Literal["pending_confirmation", "active", "revoked"]
PairingKind = Literal["device", "owner_enrollment"]
PairingToken = text(max_length=200)
FingerprintText = text(max_length=64)


class PairingInitiate(RequestBody):
    tenant_uuid: uuid.UUID = Field(description="The workspace the device is paired to.")


class PairingInvitation(Resource):
    expires_at: int = Field(description="Expiry of the pairing token in unix milliseconds (an integer).")
    pairing_token: str = Field(description="Valid 5 minutes (an owner enrollment secret: 72 hours) and for one "
                                           "registration.")
    qr_data: str = Field(description="JSON for the QR code: v, base_url, tenant_uuid, pairing_token.")
    kind: PairingKind = Field("device", description="device: the owner confirms the device it registers; "
                                                    "owner_enrollment: the owner's own device, which the operator "
                                                    "confirms (custody owner confirm-device).")

    @classmethod
    def of(cls, invitation: devices.PairingInvitation) -> "PairingInvitation":
        return cls(expires_at=unix_ms(invitation.expires_at), pairing_token=invitation.pairing_token,
                   qr_data=invitation.qr_data, kind=invitation.kind)


class DeviceRegister(RequestBody):
    pairing_token: PairingToken = Field(description="The token from pairing/initiate or an invitation's "
                                                    "acceptance, or the owner's enrollment secret.")
    public_key: Ed25519PublicKey = Field(description="The device's Ed25519 public key: 32 bytes in base64.")
    name: Name | None = Field(None, description="Display name, 1 to 100 characters (default: device).")


class DeviceConfirm(RequestBody):
    fingerprint: FingerprintText = Field(description="The fingerprint as shown on the device; spaces and case "
                                                     "are ignored.")


class Device(Resource):
    device_id: uuid.UUID
    workspace_id: uuid.UUID
    user_id: uuid.UUID = Field(description="The user the device acts for.")
    name: str
    fingerprint: str = Field(description="Eight groups of four hex characters: the first 16 bytes of SHA-256 "
                                         "of the public key.")
    status: DeviceStatus
    created_at: Timestamp
    confirmed_at: Timestamp | None

    @classmethod
    def of(cls, device: DeviceRow) -> "Device":
        return cls(
            device_id=device.id, workspace_id=device.workspace_id,
            user_id=device.user_id,
            name=device.name, fingerprint=device.fingerprint, status=device.status,
            created_at=device.created_at, confirmed_at=device.confirmed_at,
        )


class DeviceListQuery(QueryParams):
    tenant_uuid: uuid.UUID = Field(description="The workspace.")
    status: DeviceStatus | None = Field(None, description="Only devices in this status.")


class DeviceList(Resource):
    devices: list[Device] = Field(description="Newest first, at most 200: every device of the workspace with "
                                              "MANAGE_DEVICES (the owner), else the caller's own.")


class OwnerEnrollmentCancel(RequestBody):
    tenant_uuid: uuid.UUID = Field(description="The workspace whose pending owner enrollments end.")


class OwnerEnrollmentCancelled(Resource):
    cancelled: int = Field(description="How many pending enrollments ended (their unconfirmed devices are revoked).")
