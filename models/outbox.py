"""The transactional outbox: a command row per job, written with the state it acts on."""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from custody import clock


class Command(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    #: The dramatiq actor ("domain.verb") that carries the command out.
    actor_name = fields.CharField(max_length=100, db_index=True)
    #: Keyword arguments of the actor's handler besides ``command_id``; JSON only.
    payload = fields.JSONField(default=dict)
    workspace_id = fields.UUIDField(null=True)
    #: pending -> running -> done | failed.
    status = fields.CharField(max_length=10, default="pending", db_index=True)
    #: Earliest moment the command may run (a delayed command); the relay respects it.
    run_at = fields.DatetimeField(default=clock.now)
    enqueued_at = fields.DatetimeField(null=True)
    enqueue_count = fields.IntField(default=0)
    attempts = fields.IntField(default=0)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)
    last_error = fields.TextField(null=True)
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "outbox_commands"
