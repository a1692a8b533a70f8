"""The scheduler: APScheduler jobs that enqueue work, guarded by leader election.

Jobs:

- ``outbox.relay`` every ``OUTBOX_RELAY_INTERVAL_SECONDS``: re-enqueue commands no worker
  started within ``OUTBOX_RELAY_AFTER_SECONDS``.
- ``auth.purge_expired`` hourly: enqueue the housekeeping actor.
- ``deposits.watch`` every ``CHAIN_WATCH_INTERVAL_SECONDS``: read new final blocks into deposits.
- ``transactions.compact_changelog`` every ``CHANGELOG_COMPACTION_INTERVAL_SECONDS``: move
  min_cursor past changes older than ``CHANGELOG_RETENTION_DAYS``.
- ``devnet.produce_blocks`` every ``DEVNET_BLOCK_INTERVAL_SECONDS`` (when ``DEVNET_ENABLED``).
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
        from actors.deposits import WATCH as CHAIN_WATCH
        from actors.devnet import PRODUCE_BLOCKS
        from actors.transactions import COMPACT_CHANGELOG
        from actors.webhooks import SWEEP, SWEEP_INTERVAL_SECONDS, sweep_overdue_deliveries

        return [
            ScheduledJob("outbox.relay", self.settings.outbox_relay_interval_seconds,
                         lambda: outbox.relay_stale_commands(broker=self._broker)),
            ScheduledJob(PURGE_EXPIRED, 3600, lambda: _enqueue(PURGE_EXPIRED)),
            ScheduledJob(SWEEP, SWEEP_INTERVAL_SECONDS, lambda: sweep_overdue_deliveries(broker=self._broker)),
            # wallets, networks and balances (issue 5)
            ScheduledJob(CHAIN_WATCH, self.settings.chain_watch_interval_seconds, lambda: _enqueue(CHAIN_WATCH)),
            ScheduledJob(COMPACT_CHANGELOG, self.settings.changelog_compaction_interval_seconds,
                         lambda: _enqueue(COMPACT_CHANGELOG)),
        ] + ([ScheduledJob(PRODUCE_BLOCKS, self.settings.devnet_block_interval_seconds,
                           lambda: _enqueue(PRODUCE_BLOCKS))] if self.settings.devnet_enabled else [])

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
