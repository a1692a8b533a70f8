"""The scheduler's jobs (schedules/main.py): which jobs exist, at which intervals, and that
APScheduler registers each of them."""

from __future__ import annotations

from domain.webhooks.catalogue import SWEEP
from schedules.main import Scheduler


async def test_apscheduler_registers_every_job(scheduler_settings, broker):
    scheduler = Scheduler(scheduler_settings, broker=broker)
    scheduler.start()
    try:
        names = {job.id for job in scheduler._aps.get_jobs()}  # noqa: SLF001
        assert {"outbox.relay", "outbox.purge", "auth.purge_expired"} <= names
        assert names == {job.name for job in scheduler.jobs()}
    finally:
        await scheduler.stop()


async def test_the_scheduler_runs_block_production_watching_and_compaction(settings, broker):
    scheduler = Scheduler(settings.with_overrides(devnet_block_interval_seconds=7), broker=broker)
    jobs = {job.name: job.interval_seconds for job in scheduler.jobs()}
    assert jobs["devnet.produce_blocks"] == 7
    assert jobs["deposits.watch"] == settings.chain_watch_interval_seconds
    assert jobs["transactions.compact_changelog"] == settings.changelog_compaction_interval_seconds
    disabled = Scheduler(settings.with_overrides(devnet_enabled=False), broker=broker)
    assert "devnet.produce_blocks" not in {job.name for job in disabled.jobs()}
    await scheduler.stop()
    await disabled.stop()


def test_the_sweep_is_a_scheduled_job(settings):
    names = {job.name for job in Scheduler(settings).jobs()}
    assert SWEEP in names


def test_stale_key_generations_are_expired_every_minute(settings):
    intervals = {job.name: job.interval_seconds for job in Scheduler(settings).jobs()}
    assert intervals["keys.expire_stale"] == 60


def test_orphaned_presignature_parts_are_swept_every_minute(settings):
    intervals = {job.name: job.interval_seconds for job in Scheduler(settings).jobs()}
    assert intervals["signing.sweep_presignatures"] == 60


def test_the_gas_station_retry_runs_every_configured_interval(settings):
    intervals = {job.name: job.interval_seconds for job in Scheduler(settings.with_overrides(
        gas_station_retry_interval_seconds=7)).jobs()}
    assert intervals["gas_station.retry"] == 7
def test_change_approval_requests_are_expired_by_a_scheduled_job(settings):
    intervals = {job.name: job.interval_seconds for job in Scheduler(settings).jobs()}
    assert intervals["change_approvals.expire"] == settings.change_approval_expire_interval_seconds
