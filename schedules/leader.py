"""Leader election with a PostgreSQL session-level advisory lock.

Every scheduler process tries ``pg_try_advisory_lock(key)`` on a connection of its own. The
holder is the leader and runs the jobs; the others skip them. When the leader dies its
connection closes and PostgreSQL releases the lock, so another scheduler takes over on its
next tick. No table, no lease timing to tune.
"""

from __future__ import annotations

import logging

import asyncpg

from core.db import asyncpg_url

logger = logging.getLogger(__name__)


class LeaderLock:
    def __init__(self, *, database_url: str, key: int) -> None:
        self._dsn = asyncpg_url(database_url).replace("postgres://", "postgresql://", 1)
        self._key = key
        self._connection: asyncpg.Connection | None = None
        self._held = False

    @property
    def held(self) -> bool:
        return self._held and self._connection is not None and not self._connection.is_closed()

    async def acquire(self) -> bool:
        """True when this process is (or just became) the leader."""
        if self.held:
            return True
        try:
            if self._connection is None or self._connection.is_closed():
                self._connection = await asyncpg.connect(self._dsn)
            self._held = bool(await self._connection.fetchval("SELECT pg_try_advisory_lock($1)", self._key))
        except (OSError, asyncpg.PostgresError) as exc:
            logger.warning("scheduler: leader election failed: %s", type(exc).__name__)
            await self.release()
            return False
        if self._held:
            logger.info("scheduler: this process is the leader")
        return self._held

    async def release(self) -> None:
        """Give up leadership (closing the connection releases the lock)."""
        self._held = False
        if self._connection is not None and not self._connection.is_closed():
            await self._connection.close()
        self._connection = None
