"""Authentication housekeeping jobs (enqueued by the scheduler)."""

from __future__ import annotations

import logging

from core.jobs import actor
from core.unit_of_work import unit_of_work
from domain.maintenance import PURGE_EXPIRED, purge_expired_auth_state

logger = logging.getLogger(__name__)


@actor(PURGE_EXPIRED, max_retries=3)
async def purge_expired() -> None:
    """Delete expired nonces, long-expired tokens and unused pairing sessions (idempotent)."""
    async with unit_of_work():
        counts = await purge_expired_auth_state()
    logger.info("auth.purge_expired: %s", counts)
