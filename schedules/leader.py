"""Leader election with a PostgreSQL session-level advisory lock.

Every scheduler process tries ``pg_try_advisory_lock(key)`` on a connection of its own. The
holder is the leader and runs the jobs; the others skip them. When the leader dies its
connection closes and PostgreSQL releases the lock, so another scheduler takes over on its
next tick. No table, no lease timing to tune.

Two things make this safe inside one process, where several jobs ask at the same moment:

- :meth:`LeaderLock.acquire` is serialized (an ``asyncio.Lock``): one connection per process,
  never one per concurrent caller (each overwriting the last, so that the process could hold
  the lock on a connection it forgot and believe it does not lead, or lead twice).
- A leader proves its connection is alive before it answers True (a round trip bounded by
  ``check_timeout``): a connection the server killed, or lost behind a network cut that the
  client's socket never hears of, has released the lock, and a leader that did not notice would
  run the jobs beside the new one.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from core.db import asyncpg_url

logger = logging.getLogger(__name__)

#: What the lock's connection calls itself in ``pg_stat_activity``.
APPLICATION_NAME = "custody-scheduler-leader"
#: How long connecting, and the liveness check of the leader's connection, may take.
CHECK_TIMEOUT_SECONDS = 5.0


class LeaderLock:
    def __init__(self, *, database_url: str, key: int, check_timeout: float = CHECK_TIMEOUT_SECONDS) -> None:
        self._dsn = asyncpg_url(database_url).replace("postgres://", "postgresql://", 1)
        self._key = key
        self._timeout = check_timeout
        self._connection: asyncpg.Connection | None = None
        self._held = False
        self._guard = asyncio.Lock()

    @property
    def held(self) -> bool:
        """What this process last established (:meth:`acquire` checks it against the server)."""
        return self._held and self._connection is not None and not self._connection.is_closed()

    async def acquire(self) -> bool:
        """True when this process is (or just became) the leader."""
        async with self._guard:
            try:
                if self.held:
                    # Session-level: held for as long as this connection lives. Prove it does.
                    await self._connection.fetchval("SELECT 1", timeout=self._timeout)  # type: ignore[union-attr]  # connected while held
                    return True
                if self._connection is None or self._connection.is_closed():
                    self._connection = await asyncpg.connect(
                        self._dsn, timeout=self._timeout, server_settings={"application_name": APPLICATION_NAME})
                self._held = bool(await self._connection.fetchval(
                    "SELECT pg_try_advisory_lock($1)", self._key, timeout=self._timeout))
            except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                was_leader = self._held
                # No goodbye on a connection that failed: it may never answer (a cut network).
                self._abandon()
                logger.warning("scheduler: %s: %s", "lost the leader's connection" if was_leader
                               else "leader election failed", type(exc).__name__)
                return False
            if self._held:
                logger.info("scheduler: this process is the leader")
            return self._held

    async def release(self) -> None:
        """Give up leadership (closing the connection releases the lock)."""
        async with self._guard:
            await self._close()

    async def _close(self) -> None:
        connection = self._connection
        if connection is not None and not connection.is_closed():
            try:
                await connection.close(timeout=self._timeout)
            except (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
                pass
        self._abandon()

    def _abandon(self) -> None:
        """Forget the connection at once, without waiting for the server."""
        self._held = False
        connection, self._connection = self._connection, None
        if connection is not None:
            connection.terminate()
