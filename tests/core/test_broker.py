"""The worker's broker: the database opens before the first message and closes after the last, a
woken consumer finds a message enqueued on an idle queue at once."""

from __future__ import annotations

import asyncio
import time

import dramatiq
from dramatiq.middleware import AsyncIO

from core.broker import DatabaseLifecycle, ParentWatch, create_broker
from models import ORM_APP
from tests.support.environment import TEST_NAMESPACE


def test_a_worker_opens_its_database_before_taking_messages_and_closes_it_after_the_last(settings):
    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-lifecycle", orm_app=ORM_APP)
    try:
        kinds = [type(m) for m in broker.middleware]
        # "before" hooks run in order, "after" hooks in reverse: the loop exists before the database
        # opens, and is still running when the database closes
        assert kinds.index(AsyncIO) < kinds.index(DatabaseLifecycle) and ParentWatch in kinds
        lifecycle = broker.middleware[kinds.index(DatabaseLifecycle)]
        # Opening happens before the worker threads start (not after boot, when they already run)
        assert type(lifecycle).before_worker_boot is not dramatiq.Middleware.before_worker_boot
        assert type(lifecycle).after_worker_boot is dramatiq.Middleware.after_worker_boot
        # Closing waits for in-flight messages: after shutdown, never before it
        assert type(lifecycle).before_worker_shutdown is dramatiq.Middleware.before_worker_shutdown
        assert type(lifecycle).after_worker_shutdown is not dramatiq.Middleware.after_worker_shutdown
    finally:
        broker.close()


async def test_an_idle_consumer_is_woken_by_an_enqueue(settings):
    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-wake", event_loop=asyncio.get_running_loop())
    started: list[float] = []

    @dramatiq.actor(broker=broker, queue_name="wake_probe", actor_name="wake_probe.ping")
    def ping(sent_at: float) -> None:
        started.append(time.time() - sent_at)

    # A worker whose idle poll would otherwise wait up to 2 s
    worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=2000)
    worker.start()
    try:
        await asyncio.sleep(2.5)  # idle long enough for the poll to back off fully
        for _ in range(5):
            await asyncio.to_thread(ping.send, time.time())
            await asyncio.sleep(0.3)
        await asyncio.sleep(0.2)
    finally:
        await asyncio.to_thread(worker.stop, 5000)
        broker.close()
    assert len(started) == 5 and max(started) < 0.5
