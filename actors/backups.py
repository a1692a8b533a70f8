"""Backup pipeline steps (queue ``backups``); the signers' exports run on their own queues."""

from __future__ import annotations

import uuid

from core.jobs import command_actor
from core.outbox import Command
from domain.signing import backups


@command_actor(backups.START)
async def start(*, command: Command, backup_id: str) -> None:
    """Fix the key sets and ask both signers to export their shares sealed to the backup key."""
    await backups.begin_export(backup_id=uuid.UUID(backup_id))


@command_actor(backups.ASSEMBLE)
async def assemble(*, command: Command, backup_id: str) -> None:
    """Both exports in: write the backup file."""
    await backups.assemble(backup_id=uuid.UUID(backup_id))
