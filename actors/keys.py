"""Key generation coordinator steps (queue ``keys``): advance a key set's DKG when a round is complete."""

from __future__ import annotations

import uuid

from core.jobs import actor, command_actor
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain.signing import keys


@command_actor(keys.COLLECT_ROUND1)
async def collect_round1(*, command: Command, key_set_id: str) -> None:
    """All round-1 broadcasts in: start round 2."""
    await keys.collect_round1(key_set_id=uuid.UUID(key_set_id))


@command_actor(keys.COLLECT_ROUND2)
async def collect_round2(*, command: Command, key_set_id: str) -> None:
    """All round-2 packages in: finalize."""
    await keys.collect_round2(key_set_id=uuid.UUID(key_set_id))


@command_actor(keys.COLLECT_RESULTS)
async def collect_results(*, command: Command, key_set_id: str) -> None:
    """Every participant finalized and agrees: the key set is ready."""
    await keys.collect_results(key_set_id=uuid.UUID(key_set_id))


@actor(keys.EXPIRE_STALE, max_retries=0)
async def expire_stale() -> None:
    """Fail key generations that did not finish within KEY_GENERATION_TIMEOUT_SECONDS."""
    async with unit_of_work():
        await keys.expire_stale_generations()
