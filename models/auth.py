"""Authentication state: access tokens (hashed), used nonces, devices and pairing sessions."""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import TimestampedModel


class AccessToken(Model):
    """An opaque bearer token; only its SHA-256 is stored. ``id`` is the token's ``jti``."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    token_hash = fields.CharField(max_length=64, unique=True)
    user = fields.ForeignKeyField("models.User", related_name="tokens", on_delete=fields.CASCADE)
    user_id: uuid.UUID
    device = fields.ForeignKeyField("models.Device", related_name="tokens", null=True, on_delete=fields.CASCADE)
    device_id: uuid.UUID | None
    #: "user" (API user key) or "device" (paired mobile device / co-signer).
    client_type = fields.CharField(max_length=10)
    issued_at = fields.DatetimeField(default=clock.now)
    expires_at = fields.DatetimeField(db_index=True)
    revoked_at = fields.DatetimeField(null=True)

    class Meta:
        table = "access_tokens"


class AuthNonce(Model):
    """A nonce seen in a signed token request; the unique key makes a replay fail."""

    id = fields.BigIntField(primary_key=True)
    client_id = fields.UUIDField()
    nonce = fields.CharField(max_length=128)
    expires_at = fields.DatetimeField(db_index=True)

    class Meta:
        table = "auth_nonces"
        unique_together = (("client_id", "nonce"),)


class Device(TimestampedModel):
    """A mobile device or headless co-signer paired to one user in one workspace."""

    user = fields.ForeignKeyField("models.User", related_name="devices", on_delete=fields.CASCADE)
    user_id: uuid.UUID
    workspace = fields.ForeignKeyField("models.Workspace", related_name="devices", on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    name = fields.CharField(max_length=100)
    public_key = fields.BinaryField()
    fingerprint = fields.CharField(max_length=39)
    #: pending_confirmation -> active (owner confirmed the fingerprint) -> revoked.
    status = fields.CharField(max_length=25, default="pending_confirmation")
    confirmed_at = fields.DatetimeField(null=True)
    confirmed_by = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    confirmed_by_id: uuid.UUID | None

    class Meta:
        table = "devices"


class PairingSession(TimestampedModel):
    """A short-lived pairing token (hashed) that lets one device register its public key."""

    token_hash = fields.CharField(max_length=64, unique=True)
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.CASCADE)
    user_id: uuid.UUID
    expires_at = fields.DatetimeField()
    device = fields.ForeignKeyField("models.Device", related_name=False, null=True, on_delete=fields.SET_NULL)
    device_id: uuid.UUID | None
    #: ``device`` (a member's pairing token, minutes) or ``owner_enrollment`` (the owner's
    #: enrollment secret, days: the operator confirms the device it registers; docs/users.md).
    kind = fields.CharField(max_length=20, default="device")
    #: An owner recovery enrollment: the device it registers can be confirmed from then on only.
    not_before = fields.DatetimeField(null=True)

    class Meta:
        table = "pairing_sessions"
