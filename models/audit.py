"""The append-only audit log (a database trigger refuses UPDATE and DELETE)."""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock


class AuditEntry(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    workspace_id = fields.UUIDField(null=True, db_index=True)
    company_id = fields.UUIDField(null=True)
    #: Who did it: a user id, or null for the system (actors, scheduler).
    actor_id = fields.UUIDField(null=True)
    actor_type = fields.CharField(max_length=20)
    action = fields.CharField(max_length=64)
    object_type = fields.CharField(max_length=40)
    object_id = fields.CharField(max_length=64, null=True)
    details = fields.JSONField(default=dict)
    request_id = fields.CharField(max_length=64, null=True)
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "audit_log"
