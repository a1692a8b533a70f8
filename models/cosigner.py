"""Co-signer parts: the client co-signer's encrypted secret part for one key set.

The part's ``config`` is a JSON document (see docs/signing.md, "Co-signer part config") holding
the co-signer's public key material and its key package encrypted under a passphrase only the
client knows; the service validates the public half and keeps the whole as an escrow copy.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class CosignerPart(TimestampedModel):
    """Status: ``registered`` (POST /co-signer/part) -> ``committed`` (POST .../commit)."""

    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    #: The intent the part answers: the key set whose DKG produced it (unique: one part per set).
    key_set = fields.OneToOneField("models.KeySet", related_name=False, on_delete=fields.RESTRICT)
    key_set_id: uuid.UUID
    participant = fields.SmallIntField(default=3)
    user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.RESTRICT)
    user_id: uuid.UUID
    device = fields.ForeignKeyField("models.Device", related_name=False, null=True, on_delete=fields.SET_NULL)
    device_id: uuid.UUID | None
    config = fields.TextField()
    status = fields.CharField(max_length=12, default="registered")
    committed_at = fields.DatetimeField(null=True)

    class Meta:
        table = "cosigner_parts"


class CosignerDesignation(TimestampedModel):
    """Who may take the co-signer seat of the workspace's key sets: an API user (``device`` null,
    a headless co-signer) or one paired device (and its user). Only the owner designates it
    (domain/signing/cosigner.py); nobody else can take a seat."""

    workspace = fields.OneToOneField("models.Workspace", related_name=False, on_delete=fields.CASCADE)
    workspace_id: uuid.UUID
    user = fields.ForeignKeyField("models.User", related_name=False, on_delete=fields.CASCADE)
    user_id: uuid.UUID
    device = fields.ForeignKeyField("models.Device", related_name=False, null=True, on_delete=fields.CASCADE)
    device_id: uuid.UUID | None
    #: The owner who designated it (null: the operator, at bootstrap).
    designated_by = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    designated_by_id: uuid.UUID | None

    class Meta:
        table = "cosigner_designations"
