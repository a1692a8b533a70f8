"""The scheduler: APScheduler jobs that enqueue work, guarded by leader election.

Jobs:

- ``outbox.relay`` every ``OUTBOX_RELAY_INTERVAL_SECONDS``: re-enqueue commands no worker
  started within ``OUTBOX_RELAY_AFTER_SECONDS``.
- ``auth.purge_expired`` hourly: enqueue the housekeeping actor.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import dramatiq
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from custody import outbox
from custody.settings import Settings, get_settings
from schedules.leader import LeaderLock

logger = logging.getLogger(__name__)

Job = Callable[[], Awaitable[Any]]


@dataclass(frozen=True)
class ScheduledJob:
    name: str
    interval_seconds: int
    run: Job


async def _enqueue(actor_name: str) -> None:
    actor = dramatiq.get_broker().get_actor(actor_name)
    await asyncio.to_thread(actor.send)


class Scheduler:
    """Runs the periodic jobs when, and only when, this process holds the leader lock."""

    def __init__(self, settings: Settings | None = None, *, broker: dramatiq.Broker | None = None) -> None:
        self.settings = settings or get_settings()
        assert self.settings.database_url, "the scheduler needs DATABASE_URL"
        self.leader = LeaderLock(database_url=self.settings.database_url, key=self.settings.scheduler_lock_key)
        self._broker = broker
        self._aps: AsyncIOScheduler | None = None

    def jobs(self) -> list[ScheduledJob]:
        from actors.auth import PURGE_EXPIRED

        return [
            ScheduledJob("outbox.relay", self.settings.outbox_relay_interval_seconds,
                         lambda: outbox.relay_stale_commands(broker=self._broker)),
            ScheduledJob(PURGE_EXPIRED, 3600, lambda: _enqueue(PURGE_EXPIRED)),
        ]

    async def run_job(self, job: ScheduledJob) -> bool:
        """Run ``job`` if this process is the leader. Returns whether it ran."""
        if not await self.leader.acquire():
            return False
        try:
            await job.run()
        except Exception:  # noqa: BLE001 - a failing job must not stop the scheduler
            logger.exception("scheduler: job %s failed", job.name)
        return True

    def start(self) -> None:
        self._aps = AsyncIOScheduler(timezone="UTC")
        for job in self.jobs():
            self._aps.add_job(self.run_job, "interval", args=[job], seconds=job.interval_seconds, id=job.name,
                              max_instances=1, coalesce=True)
        self._aps.start()
        logger.info("scheduler: started %d job(s)", len(self.jobs()))

    async def stop(self) -> None:
        if self._aps is not None:
            self._aps.shutdown(wait=False)
        await self.leader.release()


async def run_forever(settings: Settings | None = None) -> None:
    """Entry point of the ``scheduler`` process."""
    from custody.broker import setup_broker
    from custody.db import close_database, init_database

    settings = settings or get_settings()
    setup_broker(settings)
    await init_database(settings)
    scheduler = Scheduler(settings)
    scheduler.start()
    try:
        await asyncio.Event().wait()
    finally:
        await scheduler.stop()
        await close_database()
