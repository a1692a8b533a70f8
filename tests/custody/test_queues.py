"""``custody queues``: depths per queue beside other keys of the namespace, dead letters requeued
and purged by actor and age, the outbox's stale commands."""

from __future__ import annotations

import time

import asyncpg
import dramatiq
from dramatiq.message import Message

from core.broker import create_broker, message
from core.database_url import direct_url
from core.outbox import Command
from core.queues import queue_depths
from core.slots import ConcurrencySlots
from custody.queues import Selection, format_report, outbox_state, purge, queue_report, requeue_dead, select_messages
from tests.support.environment import TEST_NAMESPACE


def _dead_letter(broker: dramatiq.Broker, actor_name: str, *, age_seconds: float = 0) -> None:
    """A message of ``actor_name`` in its queue's dead letters, first enqueued ``age_seconds`` ago."""
    sent = message(actor_name, "x")
    sent = Message(queue_name=sent.queue_name, actor_name=actor_name, args=sent.args, kwargs={},
                   options={"redis_message_id": sent.message_id, "retries": 10},
                   message_timestamp=int((time.time() - age_seconds) * 1000))
    base = f"{TEST_NAMESPACE}:{sent.queue_name}"
    broker.client.zadd(f"{base}.XQ", {sent.message_id: int(time.time() * 1000)})
    broker.client.hset(f"{base}.XQ.msgs", sent.message_id, sent.encode())


async def test_depths_ignore_the_namespace_s_other_keys_and_show_the_oldest_ready_age(broker, redis_client):
    # Given a ready message, a dead letter and a webhook's concurrency slots (a sorted set) in the namespace
    broker.enqueue(message("webhooks.sweep"))
    _dead_letter(broker, "devnet.produce_blocks")
    slots = ConcurrencySlots(redis_client, prefix=f"{TEST_NAMESPACE}:webhook-slots:", limit=2, ttl_ms=60_000)
    await slots.take("some-webhook", "holder")
    # When the depths are read
    rows = {row.queue: row for row in queue_depths(redis_client, ["webhooks", "devnet", "signing"], TEST_NAMESPACE)}
    # Then each declared queue is counted, and nothing else is read as a queue
    assert set(rows) == {"webhooks", "devnet", "signing"}
    assert (rows["webhooks"].ready, rows["webhooks"].dead, rows["devnet"].dead) == (1, 0, 1)
    assert rows["webhooks"].oldest_ready_age_seconds is not None and rows["signing"].oldest_ready_age_seconds is None


async def test_requeue_moves_dead_letters_back_by_actor_and_age_and_purge_deletes_them(broker, redis_client):
    _dead_letter(broker, "webhooks.deliver", age_seconds=600)
    _dead_letter(broker, "webhooks.deliver", age_seconds=5)
    _dead_letter(broker, "webhooks.sweep", age_seconds=600)
    old_deliveries = Selection(queue="webhooks", actor="webhooks.deliver", older_than_seconds=60)
    assert len(select_messages(redis_client, old_deliveries, TEST_NAMESPACE)) == 1
    # When the old delivery's dead letter is requeued
    assert requeue_dead(broker, old_deliveries) == 1
    # Then it is ready again without its retry count, and the other two are still dead
    (ready_id,) = redis_client.lrange(f"{TEST_NAMESPACE}:webhooks", 0, -1)
    requeued = Message.decode(redis_client.hget(f"{TEST_NAMESPACE}:webhooks.msgs", ready_id))
    assert requeued.actor_name == "webhooks.deliver" and "retries" not in requeued.options
    assert redis_client.zcard(f"{TEST_NAMESPACE}:webhooks.XQ") == 2
    # And a second requeue finds nothing; purge deletes what is selected
    assert requeue_dead(broker, old_deliveries) == 0
    assert purge(redis_client, Selection(queue="webhooks", actor="webhooks.sweep"), TEST_NAMESPACE) == 1
    assert purge(redis_client, Selection(queue="webhooks", kind="ready"), TEST_NAMESPACE) == 1
    assert redis_client.zcard(f"{TEST_NAMESPACE}:webhooks.XQ") == 1 and redis_client.llen(f"{TEST_NAMESPACE}:webhooks") == 0


async def test_the_outbox_state_names_the_oldest_stale_command(database, settings, frozen_clock):
    old = await Command.create(actor_name="webhooks.fan_out", payload={}, status="pending", run_at=frozen_clock.now(),
                               last_error="RuntimeError: boom")
    frozen_clock.advance(seconds=settings.outbox_relay_after_seconds + 5)
    await Command.create(actor_name="webhooks.fan_out", payload={}, status="pending", run_at=frozen_clock.now())
    await Command.create(actor_name="webhooks.fan_out", payload={}, status="done")
    # When custody queues reads the outbox (its own connection, no ORM)
    connection = await asyncpg.connect(direct_url(settings.database_url))
    try:
        state = await outbox_state(connection, settings)
    finally:
        await connection.close()
    # Then it counts by status and names the oldest stale command
    assert state["by_status"] == {"pending": 2, "running": 0, "done": 1, "failed": 0} and state["stale"] == 1
    assert state["oldest_stale"]["id"] == str(old.id) and state["oldest_stale"]["age_seconds"] >= 35
    assert state["oldest_stale"]["last_error"] == "RuntimeError: boom"


async def test_the_report_and_a_new_broker_use_the_namespace_of_the_settings(broker, settings, database):
    # Given a ready message in the suite's namespace (REDIS_NAMESPACE of its settings)
    broker.enqueue(message("webhooks.sweep"))
    # When custody queues reports with those settings, and with another namespace's
    ready = {row["queue"]: row["ready"] for row in (await queue_report(settings))["queues"]}
    elsewhere = settings.with_overrides(redis_namespace=f"{TEST_NAMESPACE}-elsewhere")
    ready_elsewhere = {row["queue"]: row["ready"] for row in (await queue_report(elsewhere))["queues"]}
    # Then only the first sees it, and a broker made from settings writes under their namespace
    assert (ready["webhooks"], ready_elsewhere["webhooks"]) == (1, 0)
    made = create_broker(elsewhere)
    try:
        assert made.namespace == f"{TEST_NAMESPACE}-elsewhere"
    finally:
        made.close()


def test_the_table_keeps_its_columns_for_the_longest_queue_name():
    # Given depths of a short and the longest queue name
    rows = [{"queue": name, "ready": 3, "delayed": 0, "in_progress": 1, "dead": 0, "oldest_ready_age_seconds": None}
            for name in ("aml", "transaction_approvals")]
    report = {"queues": rows, "outbox": {"by_status": {"pending": 0}, "stale": 0, "oldest_stale": None}}
    # When the table is made for people
    header, *lines = format_report(report).splitlines()[:3]
    # Then every figure sits under its heading: the rows are as long as the header
    assert {len(line) for line in lines} == {len(header)}
    assert all(line.split()[1:] == ["3", "0", "1", "0", "-"] for line in lines)
