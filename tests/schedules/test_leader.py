"""Leader election (schedules/leader.py) between schedulers: only the leader runs a job; the
relay re-enqueues stale commands once."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from core.outbox import Command
from schedules.main import Scheduler


async def _stale_commands(frozen_clock, count: int) -> list[Command]:
    created = [await Command.create(actor_name="companies.review_application",
                                    payload={"application_id": "00000000-0000-0000-0000-000000000000"})
               for _ in range(count)]
    frozen_clock.advance(timedelta(minutes=5))
    return created


async def test_two_schedulers_run_each_job_once(scheduler_settings, broker, frozen_clock):
    first, second = Scheduler(scheduler_settings, broker=broker), Scheduler(scheduler_settings, broker=broker)
    try:
        commands = await _stale_commands(frozen_clock, 3)
        relay_a = next(job for job in first.jobs() if job.name == "outbox.relay")
        relay_b = next(job for job in second.jobs() if job.name == "outbox.relay")
        # When both schedulers fire the relay at the same moment
        ran = await asyncio.gather(first.run_job(relay_a), second.run_job(relay_b))
        # Then exactly one of them is the leader and ran it, and each command was enqueued once
        assert sorted(ran) == [False, True]
        for command in commands:
            assert (await Command.get(id=command.id)).enqueue_count == 1
    finally:
        await first.stop()
        await second.stop()


async def test_follower_takes_over_when_the_leader_stops(scheduler_settings, broker, frozen_clock):
    leader, follower = Scheduler(scheduler_settings, broker=broker), Scheduler(scheduler_settings, broker=broker)
    try:
        job = leader.jobs()[0]
        assert await leader.run_job(job) is True
        assert await follower.run_job(job) is False
        # When the leader's process goes away (its connection closes)
        await leader.stop()
        # Then the follower becomes leader on its next tick
        assert await follower.run_job(job) is True
    finally:
        await leader.stop()
        await follower.stop()
