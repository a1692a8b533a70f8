"""Backups: the workspace's key shares exported, each sealed to the requester's Curve25519 key.

Status: ``pending`` (requested) -> ``in_progress`` (signers exporting) -> ``ready`` (file
assembled, downloadable) -> ``verified`` (the owner proved the file restores every key);
``cancelled`` (DELETE /backup) or ``failed`` from any non-final state.
"""

from __future__ import annotations

import uuid

from tortoise import fields

from models.base import TimestampedModel


class Backup(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    #: Recipient Curve25519 public key (32 bytes): every exported share is sealed to it.
    public_key = fields.BinaryField()
    status = fields.CharField(max_length=12, default="pending", db_index=True)
    requested_by = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    requested_by_id: uuid.UUID | None
    #: Key sets included, fixed when the export starts so both signers export the same ones.
    key_set_ids = fields.JSONField(default=list)
    #: The backup file (JSON; only sealed shares and public data) once ready.
    file = fields.BinaryField(null=True)
    file_sha256 = fields.CharField(max_length=64, null=True)
    completed_at = fields.DatetimeField(null=True)
    verified_at = fields.DatetimeField(null=True)
    verified_by = fields.ForeignKeyField("models.User", related_name=False, null=True, on_delete=fields.SET_NULL)
    verified_by_id: uuid.UUID | None
    error = fields.TextField(null=True)

    class Meta:
        table = "backups"


class BackupPart(TimestampedModel):
    """One signer's export for a backup: its shares, each already sealed to the backup key."""

    backup = fields.ForeignKeyField("models.Backup", related_name="parts", on_delete=fields.CASCADE)
    backup_id: uuid.UUID
    participant = fields.SmallIntField()
    #: ``[{"key_set_id", "participant", "sealed_key_package": base64}]``.
    entries = fields.JSONField()

    class Meta:
        table = "backup_parts"
        unique_together = (("backup", "participant"),)
