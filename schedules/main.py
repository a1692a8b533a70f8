"""The scheduler: APScheduler jobs that enqueue work, guarded by leader election.

Jobs:

- ``outbox.relay`` every ``OUTBOX_RELAY_INTERVAL_SECONDS``: re-enqueue commands no worker
  started within ``OUTBOX_RELAY_AFTER_SECONDS``.
- ``outbox.purge`` hourly: delete commands done more than ``OUTBOX_RETENTION_HOURS`` ago.
- ``auth.purge_expired`` hourly: enqueue the housekeeping actor.
- ``deposits.watch`` every ``CHAIN_WATCH_INTERVAL_SECONDS``: read new final blocks into deposits.
- ``transactions.compact_changelog`` every ``CHANGELOG_COMPACTION_INTERVAL_SECONDS``: move
  min_cursor past changes older than ``CHANGELOG_RETENTION_DAYS``.
- ``devnet.produce_blocks`` every ``DEVNET_BLOCK_INTERVAL_SECONDS`` (when ``DEVNET_ENABLED``).
- ``webhooks.sweep`` every 30 s: re-enqueue webhook deliveries whose message was lost.
- ``withdrawals.track`` every ``WITHDRAWAL_TRACK_INTERVAL_SECONDS``: confirmations and finality.
- ``withdrawals.expire`` every ``WITHDRAWAL_EXPIRE_INTERVAL_SECONDS``: expiry, stalled steps.
- ``gas_station.retry`` every ``GAS_STATION_RETRY_INTERVAL_SECONDS``: refuels held back by
  max_gas_price, refuels to close, token withdrawals waiting for gas.
- ``change_approvals.expire`` every ``CHANGE_APPROVAL_EXPIRE_INTERVAL_SECONDS``: expire change
  approval requests past their 72 hours.
- ``aml.poll`` every 10 s: pending AML screenings and providers' updates (docs/aml.md).
- ``transaction_approvals.expire`` every ``TRANSACTION_APPROVAL_EXPIRE_INTERVAL_SECONDS``: approvals expiry.
- ``audit.sweep`` every 10 s: chain the audit entries of workspaces whose chain is behind
  (domain/audit_chain.py; each audited commit also nudges its workspace's chainer).
- ``signing.sweep`` every 5 s: wake the service signers again for round-2 signing sessions whose
  wake-up was lost, and nudge their nonce-stock refills (domain/signing/sessions.py).
- ``signing.sweep_presignatures`` every 60 s: wipe threshold ECDSA presignature parts whose
  partner never came (after ``ORPHAN_GRACE_SECONDS``) and those of retired key sets; delete a
  batch of spent single-use stock rows past ``SPENT_RETENTION`` (domain/signing/stock.py).
- ``keys.expire_stale`` every 60 s: fail key generations not ready within
  ``KEY_GENERATION_TIMEOUT_SECONDS``, naming the participants they waited for.

Every job but the outbox's relay and purge only enqueues an actor by name; the process entry
point is ``custody scheduler`` (:mod:`custody.scheduler`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

import dramatiq
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from core import jobs, outbox
from core.settings import Settings, get_settings
from domain.aml.screening import POLL as AML_POLL
from domain.aml.screening import POLL_INTERVAL_SECONDS as AML_POLL_INTERVAL_SECONDS
from domain.audit_chain import SWEEP as AUDIT_SWEEP
from domain.audit_chain import SWEEP_INTERVAL_SECONDS as AUDIT_SWEEP_INTERVAL_SECONDS
from domain.change_approvals.requests import EXPIRE as EXPIRE_CHANGE_APPROVALS
from domain.deposits import WATCH as CHAIN_WATCH
from domain.maintenance import PURGE_EXPIRED
from domain.networks.devnet_chain import PRODUCE_BLOCKS
from domain.signing.keys import EXPIRE_STALE as EXPIRE_KEY_GENERATIONS
from domain.signing.keys import EXPIRE_STALE_INTERVAL_SECONDS
from domain.signing.presignatures import SWEEP_STOCK as PRESIGNATURE_SWEEP
from domain.signing.presignatures import SWEEP_STOCK_INTERVAL_SECONDS as PRESIGNATURE_SWEEP_INTERVAL_SECONDS
from domain.signing.sessions import SWEEP as SIGNING_SWEEP
from domain.signing.sessions import SWEEP_INTERVAL_SECONDS as SIGNING_SWEEP_INTERVAL_SECONDS
from domain.transaction_approvals import EXPIRE as EXPIRE_APPROVALS
from domain.transactions import COMPACT_CHANGELOG
from domain.webhooks.catalogue import SWEEP, SWEEP_INTERVAL_SECONDS
from domain.withdrawals.pipeline import EXPIRE as EXPIRE_WITHDRAWALS
from domain.withdrawals.pipeline import TRACK as TRACK_WITHDRAWALS
from domain.withdrawals.refuels import RETRY as GAS_STATION_RETRY
from schedules.leader import LeaderLock

logger = logging.getLogger(__name__)

Job = Callable[[], Awaitable[Any]]


@dataclass(frozen=True)
class ScheduledJob:
    name: str
    interval_seconds: int
    run: Job


def _enqueue(actor_name: str, broker: dramatiq.Broker | None) -> Job:
    async def run() -> None:
        await jobs.send(actor_name, [((), None)], broker=broker)

    return run


class Scheduler:
    """Runs the periodic jobs when, and only when, this process holds the leader lock."""

    def __init__(self, settings: Settings | None = None, *, broker: dramatiq.Broker | None = None) -> None:
        self.settings = settings or get_settings()
        assert self.settings.database_url, "the scheduler needs DATABASE_URL"
        self.leader = LeaderLock(database_url=self.settings.database_url, key=self.settings.scheduler_lock_key)
        self._broker = broker
        self._aps: AsyncIOScheduler | None = None

    def jobs(self) -> list[ScheduledJob]:
        settings, broker = self.settings, self._broker
        every = [
            ScheduledJob("outbox.relay", settings.outbox_relay_interval_seconds,
                         lambda: outbox.relay_stale_commands(broker=broker)),
            ScheduledJob(outbox.PURGE, 3600, outbox.purge_done_commands),
            ScheduledJob(PURGE_EXPIRED, 3600, _enqueue(PURGE_EXPIRED, broker)),
            ScheduledJob(SWEEP, SWEEP_INTERVAL_SECONDS, _enqueue(SWEEP, broker)),
            ScheduledJob(EXPIRE_KEY_GENERATIONS, EXPIRE_STALE_INTERVAL_SECONDS,
                         _enqueue(EXPIRE_KEY_GENERATIONS, broker)),
            ScheduledJob(SIGNING_SWEEP, SIGNING_SWEEP_INTERVAL_SECONDS, _enqueue(SIGNING_SWEEP, broker)),
            ScheduledJob(PRESIGNATURE_SWEEP, PRESIGNATURE_SWEEP_INTERVAL_SECONDS, _enqueue(PRESIGNATURE_SWEEP, broker)),
            ScheduledJob(CHAIN_WATCH, settings.chain_watch_interval_seconds, _enqueue(CHAIN_WATCH, broker)),
            ScheduledJob(COMPACT_CHANGELOG, settings.changelog_compaction_interval_seconds,
                         _enqueue(COMPACT_CHANGELOG, broker)),
            ScheduledJob(TRACK_WITHDRAWALS, settings.withdrawal_track_interval_seconds,
                         _enqueue(TRACK_WITHDRAWALS, broker)),
            ScheduledJob(EXPIRE_WITHDRAWALS, settings.withdrawal_expire_interval_seconds,
                         _enqueue(EXPIRE_WITHDRAWALS, broker)),
            ScheduledJob(GAS_STATION_RETRY, settings.gas_station_retry_interval_seconds,
                         _enqueue(GAS_STATION_RETRY, broker)),
            ScheduledJob(EXPIRE_CHANGE_APPROVALS, settings.change_approval_expire_interval_seconds,
                         _enqueue(EXPIRE_CHANGE_APPROVALS, broker)),
            ScheduledJob(AML_POLL, AML_POLL_INTERVAL_SECONDS, _enqueue(AML_POLL, broker)),
            ScheduledJob(AUDIT_SWEEP, AUDIT_SWEEP_INTERVAL_SECONDS, _enqueue(AUDIT_SWEEP, broker)),
            ScheduledJob(EXPIRE_APPROVALS, settings.transaction_approval_expire_interval_seconds,
                         _enqueue(EXPIRE_APPROVALS, broker)),
        ]
        if settings.devnet_enabled:
            every.append(ScheduledJob(PRODUCE_BLOCKS, settings.devnet_block_interval_seconds,
                                      _enqueue(PRODUCE_BLOCKS, broker)))
        return every

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
