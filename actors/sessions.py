"""Signing coordinator steps (queue ``signing``): round 1 complete -> round 2; shares in -> aggregate;
the sweep that wakes the signers again for lost wake-ups and keeps their nonce stocks filled."""

from __future__ import annotations

import uuid

from core import jobs
from core.jobs import actor, command_actor
from core.outbox import Command
from core.unit_of_work import WAKE_BATCH, unit_of_work
from domain.signing import keys, presignatures, sessions
from threshold.scheme import SERVICE_PARTICIPANTS


@command_actor(sessions.COLLECT_COMMITMENTS)
async def collect_commitments(*, command: Command, session_id: str) -> None:
    """All commitments in: ask the service signers for their signature shares."""
    await sessions.collect_commitments(session_id=uuid.UUID(session_id))


@command_actor(sessions.AGGREGATE)
async def aggregate(*, command: Command, session_id: str) -> None:
    """All shares in: verify each, aggregate, verify the Ed25519 signature."""
    await sessions.aggregate(session_id=uuid.UUID(session_id))


@actor(sessions.SWEEP, max_retries=0)
async def sweep() -> None:
    """Wake the signers for round-2 sessions still missing their share; nudge the nonce refills."""
    async with unit_of_work():
        lost = await sessions.lost_wakeups()
        schemes = await sessions.schemes_in_use()
    for participant, session_ids in lost.items():
        await jobs.send(keys.signer_actor(participant, sessions.SIGN_SESSIONS),
                        [((session_ids[i:i + WAKE_BATCH],), None) for i in range(0, len(session_ids), WAKE_BATCH)])
    for participant in SERVICE_PARTICIPANTS:
        await jobs.send(keys.signer_actor(participant, sessions.REFILL_NONCES), [((scheme,), None) for scheme in schemes])


@actor(presignatures.SWEEP_STOCK, max_retries=0)
async def sweep_presignatures() -> None:
    """Wipe presignature parts that can never sign: without a partner after the grace period, or
    of a retired key set (domain.signing.presignatures.sweep_stock; counts logged)."""
    async with unit_of_work():
        await presignatures.sweep_stock()
