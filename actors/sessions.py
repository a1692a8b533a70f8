"""Signing coordinator steps (queue ``signing``): round 1 complete -> round 2; shares in -> aggregate."""

from __future__ import annotations

import uuid

from core.jobs import command_actor
from core.outbox import Command
from domain.signing import sessions


@command_actor(sessions.COLLECT_COMMITMENTS)
async def collect_commitments(*, command: Command, session_id: str) -> None:
    """All commitments in: ask the service signers for their signature shares."""
    await sessions.collect_commitments(session_id=uuid.UUID(session_id))


@command_actor(sessions.AGGREGATE)
async def aggregate(*, command: Command, session_id: str) -> None:
    """All shares in: verify each, aggregate, verify the Ed25519 signature."""
    await sessions.aggregate(session_id=uuid.UUID(session_id))
