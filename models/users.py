"""Users (people and API users) and their one role per workspace."""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class User(TimestampedModel):
    #: "user" (a person, may pair a mobile device) or "api_user" (machine user with a key pair).
    user_type = fields.CharField(max_length=10)
    email = fields.CharField(max_length=320, null=True)
    first_name = fields.CharField(max_length=100, null=True)
    last_name = fields.CharField(max_length=100, null=True)
    api_user_name = fields.CharField(max_length=100, null=True)
    #: PLATFORM_ADMIN or PLATFORM_SUPPORT for platform staff, otherwise null.
    platform_role = fields.CharField(max_length=20, null=True)
    #: Ed25519 public key (32 bytes) of an API user; people authenticate through devices.
    public_key = fields.BinaryField(null=True)
    #: "active" or "removed"; a removed user's tokens stop working at once.
    status = fields.CharField(max_length=10, default="active")

    class Meta:
        table = "users"


class WorkspaceMember(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name="members", on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    user = fields.ForeignKeyField("models.User", related_name="memberships", on_delete=fields.CASCADE)
    user_id: uuid.UUID
    role = fields.CharField(max_length=20)
    role_status = fields.CharField(max_length=30, default="ROLE_STATUS_ACTIVE")

    class Meta:
        table = "workspace_members"
        unique_together = (("workspace", "user"),)


class Invitation(TimestampedModel):
    """An invitation of a person, by email, to a role in a workspace (domain/users.py).

    The person accepts with the secret sent to the email address (only its SHA-256 is stored);
    until then nobody is enrolled and the inviter sees only what it supplied.
    """

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    email = fields.CharField(max_length=320)
    role = fields.CharField(max_length=20)
    #: What the inviter supplied; a new person's names default to them when accepting.
    first_name = fields.CharField(max_length=100, null=True)
    last_name = fields.CharField(max_length=100, null=True)
    token_hash = fields.CharField(max_length=64, unique=True)
    #: pending -> accepted | declined | revoked | expired.
    status = fields.CharField(max_length=10, default="pending")
    expires_at = fields.DatetimeField()
    invited_by = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    invited_by_id: uuid.UUID | None
    #: The user the invitation enrolled (set when accepted).
    user = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    user_id: uuid.UUID | None
    decided_at = fields.DatetimeField(null=True)

    class Meta:
        table = "invitations"
