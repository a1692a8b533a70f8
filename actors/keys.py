"""Key generation coordinator steps (queue ``keys``): advance a key set's DKG when a round is complete."""

from __future__ import annotations

import uuid

from core.jobs import command_actor
from core.outbox import Command
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
