"""The outbox: commands survive a Redis outage and run exactly once."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import asyncpg
from dramatiq.brokers.redis import RedisBroker
from dramatiq.message import Message

from core import outbox
from core.broker import message
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import companies
from models.audit import AuditEntry
from models.companies import CompanyApplication
from tests.support.callers import make_principal
from tests.support.environment import TEST_NAMESPACE
from tests.support.worker import wait_for


async def _submit_application(principal, *, broker=None) -> CompanyApplication:
    async with unit_of_work(broker=broker):
        return await companies.submit_application(
            principal=principal, company_name="Globex", country="NL", email="cfo@globex.test",
            first_name="Ada", job_title="CFO", last_name="Lovelace",
        )


async def test_command_is_enqueued_after_commit_and_runs(worker):
    principal = await make_principal()
    # When an application is submitted (state + command in one transaction)
    application = await _submit_application(principal)
    # Then the worker takes it into review
    async def reviewed() -> bool:
        return (await CompanyApplication.get(id=application.id)).status == "in_review"
    await wait_for(reviewed)
    command = await Command.get(actor_name=companies.REVIEW_APPLICATION)
    assert command.status == "done" and command.attempts == 1 and command.enqueue_count == 1


async def test_rolled_back_unit_of_work_enqueues_nothing(broker, redis_client):
    principal = await make_principal()
    try:
        async with unit_of_work():
            await companies.submit_application(principal=principal, company_name="X", country="NL",
                                               email="x@x.test", first_name="A", job_title="B", last_name="C")
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert await Command.all().count() == 0
    assert await CompanyApplication.all().count() == 0
    # Nothing reached the broker either: no message body is stored for the queue.
    assert redis_client.hlen(f"{TEST_NAMESPACE}:companies.msgs") == 0


async def test_command_written_while_redis_is_down_runs_once_redis_is_back(broker, worker, frozen_clock, settings):
    principal = await make_principal()
    # Given a broker whose Redis cannot be reached
    unreachable = RedisBroker(url="redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    # When a command is written: the state commits, the enqueue fails quietly
    application = await _submit_application(principal, broker=unreachable)
    command = await Command.get(actor_name=companies.REVIEW_APPLICATION)
    # (it was written stamped as enqueued; the failed enqueue took the stamp back)
    assert command.status == "pending" and command.enqueued_at is None and command.enqueue_count == 0
    assert (await CompanyApplication.get(id=application.id)).status == "submitted"
    # Then the relay, once the command is older than the bound and Redis is back, re-enqueues it
    assert await outbox.relay_stale_commands(broker=broker) == 0  # not stale yet
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds + 1))
    assert await outbox.relay_stale_commands(broker=unreachable) == 0  # still down: nothing sent, no error
    assert await outbox.relay_stale_commands(broker=broker) == 1

    async def reviewed() -> bool:
        return (await Command.get(id=command.id)).status == "done"
    await wait_for(reviewed)
    assert (await CompanyApplication.get(id=application.id)).status == "in_review"


async def test_actor_run_twice_for_one_command_applies_its_effect_once(broker, worker):
    principal = await make_principal()
    application = await _submit_application(principal)
    command = await Command.get(actor_name=companies.REVIEW_APPLICATION)
    # When the same command is delivered twice more (at-least-once broker)
    actor = broker.get_actor(companies.REVIEW_APPLICATION)
    await asyncio.to_thread(actor.send, str(command.id))
    await asyncio.to_thread(actor.send, str(command.id))
    await worker.drain()
    # Then the effect (status change + its audit entry) happened exactly once
    assert (await CompanyApplication.get(id=application.id)).status == "in_review"
    assert await AuditEntry.filter(action="company_application.in_review").count() == 1
    assert (await Command.get(id=command.id)).attempts == 1


async def test_failing_command_is_retried_then_marked_failed(broker, worker, monkeypatch):
    principal = await make_principal()
    calls = []

    async def broken(*, application_id):
        calls.append(application_id)
        raise ValueError("downstream unavailable")

    monkeypatch.setattr(companies, "take_application_into_review", broken)
    await _submit_application(principal)
    command = await Command.get(actor_name=companies.REVIEW_APPLICATION)

    async def failed() -> bool:
        return (await Command.get(id=command.id)).status == "failed"
    await wait_for(failed)
    command = await Command.get(id=command.id)
    # max_retries=2 in the test settings: the first try and two retries
    assert len(calls) == 3 and command.attempts == 3
    assert "downstream unavailable" in command.last_error


async def test_a_committed_unit_of_work_writes_nothing_after_its_commit(worker, frozen_clock, monkeypatch):
    principal = await make_principal()
    bookkeeping = []

    async def recorded(command_ids):
        bookkeeping.append(command_ids)

    monkeypatch.setattr(outbox, "_record_enqueued", recorded)
    monkeypatch.setattr(outbox, "_record_not_enqueued", recorded)
    # When an application is submitted and its command enqueued
    application = await _submit_application(principal)
    # Then the command was written stamped as enqueued with its row: no statement after the commit
    command = await Command.get(actor_name=companies.REVIEW_APPLICATION)
    assert command.enqueued_at == command.created_at == frozen_clock.now() and command.enqueue_count == 1
    assert bookkeeping == []

    async def reviewed() -> bool:
        return (await CompanyApplication.get(id=application.id)).status == "in_review"
    await wait_for(reviewed)


async def test_a_command_whose_message_never_left_is_relayed_after_the_bound(broker, worker, frozen_clock, settings,
                                                                             monkeypatch):
    principal = await make_principal()
    # Given a unit of work whose process dies between its commit and its enqueue (nothing sent,
    # no bookkeeping: the row keeps the stamp it was written with)
    def nothing_sent(commands, *, namespace):  # a sender of core.broker that asks for no trip
        return [], []
        yield  # never reached: it makes this a generator, as outbox.command_sender is

    monkeypatch.setattr(outbox, "command_sender", nothing_sent)
    application = await _submit_application(principal)
    monkeypatch.undo()
    await worker.settle()  # a message sent would have been run by now
    command = await Command.get(actor_name=companies.REVIEW_APPLICATION)
    assert command.status == "pending" and command.enqueue_count == 1
    # Then the relay leaves it alone within the bound, and sends it once after
    assert await outbox.relay_stale_commands(broker=broker) == 0
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds - 1))
    assert await outbox.relay_stale_commands(broker=broker) == 0
    frozen_clock.advance(timedelta(seconds=2))
    assert await outbox.relay_stale_commands(broker=broker) == 1
    assert await outbox.relay_stale_commands(broker=broker) == 0  # stamped by the relay: not again

    async def reviewed() -> bool:
        return (await CompanyApplication.get(id=application.id)).status == "in_review"
    await wait_for(reviewed)
    assert (await Command.get(id=command.id)).attempts == 1


async def test_a_committed_unit_of_work_succeeds_even_if_its_failed_enqueue_cannot_be_recorded(
        broker, worker, frozen_clock, settings, monkeypatch):
    principal = await make_principal()
    # Given Redis unreachable at commit time, and PostgreSQL gone right after the commit (a
    # restart), before the failed enqueue is recorded
    unreachable = RedisBroker(url="redis://127.0.0.1:1/0", socket_connect_timeout=0.5)

    async def database_gone(command_ids):
        raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(outbox, "_record_not_enqueued", database_gone)
    # When an application is submitted: the unit of work answers success (its state committed;
    # an error here would make a client retry, and create it twice)
    application = await _submit_application(principal, broker=unreachable)
    assert await CompanyApplication.filter(company_name="Globex").count() == 1
    # Then the command, still stamped from its creation, is relayed after the bound and runs
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds + 1))
    assert await outbox.relay_stale_commands(broker=broker) == 1

    async def reviewed() -> bool:
        return (await CompanyApplication.get(id=application.id)).status == "in_review"
    await wait_for(reviewed)


async def test_the_relay_succeeds_even_if_its_enqueue_cannot_be_recorded(broker, worker, frozen_clock, settings,
                                                                          monkeypatch):
    command = await Command.create(actor_name=companies.REVIEW_APPLICATION,
                                   payload={"application_id": "00000000-0000-0000-0000-000000000000"})
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds + 1))

    async def database_gone(command_ids):
        raise asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed in the middle of operation")

    monkeypatch.setattr(outbox, "_record_enqueued", database_gone)
    # When the relay sends a stale command and cannot stamp it: it reports the send, raises nothing
    assert await outbox.relay_stale_commands(broker=broker) == 1
    assert (await Command.get(id=command.id)).enqueued_at is None


async def test_a_kept_back_command_is_sent_only_by_its_holder_or_by_the_relay(broker, worker, frozen_clock, settings,
                                                                               monkeypatch):
    principal = await make_principal()
    new_command = outbox.new_command
    monkeypatch.setattr(outbox, "new_command", lambda **kwargs: outbox.keep_back(new_command(**kwargs)))
    # Given two units of work whose commands were kept back (their holders meant to run them)
    first, second = (await _submit_application(principal), await _submit_application(principal))
    monkeypatch.undo()
    commands = {c.payload["application_id"]: c for c in await Command.filter(actor_name=companies.REVIEW_APPLICATION)}
    kept = [commands[str(first.id)], commands[str(second.id)]]
    # Then nothing was sent after their commit: no message, no enqueued stamp, nothing ran
    await worker.drain()
    for command in kept:
        row = await Command.get(id=command.id)
        assert (row.status, row.enqueued_at, row.enqueue_count) == ("pending", None, 0)
    assert {a.status for a in await CompanyApplication.all()} == {"submitted"}
    # When the holder of the first gives it up (its run failed): it is sent, and runs
    assert await outbox.send_kept_back(kept[0], broker=broker) == 1

    async def reviewed(application: CompanyApplication) -> bool:
        return (await CompanyApplication.get(id=application.id)).status == "in_review"
    await wait_for(lambda: reviewed(first))
    assert (await Command.get(id=kept[0].id)).enqueue_count == 1
    # And the second (its holder died) is the relay's once stale, like a command Redis refused
    assert await outbox.relay_stale_commands(broker=broker) == 0
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds + 1))
    assert await outbox.relay_stale_commands(broker=broker) == 1
    await wait_for(lambda: reviewed(second))
    assert (await Command.get(id=kept[1].id)).status == "done"


async def test_commands_done_longer_than_the_retention_are_purged_and_nothing_else(broker, worker, frozen_clock,
                                                                                  settings):
    # Given two commands the worker ran (done), and after the retention but one hour more...
    old = []
    for _ in range(2):
        application = await _submit_application(await make_principal())
        command = await Command.get(payload__contains={"application_id": str(application.id)})

        async def done(command_id=command.id) -> bool:
            return (await Command.get(id=command_id)).status == "done"
        await wait_for(done)
        old.append(command)
    frozen_clock.advance(timedelta(hours=settings.outbox_retention_hours - 1))
    # ... a command done just now, one pending (Redis unreachable: the relay's job) and one failed
    recent = await _submit_application(await make_principal())
    recent_command = await Command.get(payload__contains={"application_id": str(recent.id)})

    async def recent_done() -> bool:
        return (await Command.get(id=recent_command.id)).status == "done"
    await wait_for(recent_done)
    unreachable = RedisBroker(url="redis://127.0.0.1:1/0", socket_connect_timeout=0.5)
    waiting = await _submit_application(await make_principal(), broker=unreachable)
    pending = await Command.get(payload__contains={"application_id": str(waiting.id)})
    failed = await Command.create(actor_name=companies.REVIEW_APPLICATION, payload={}, status="failed",
                                  finished_at=frozen_clock.now(), last_error="downstream unavailable")
    frozen_clock.advance(timedelta(hours=2))
    # When the scheduler's purge runs (one row per statement here, so it takes several)
    deleted = await outbox.purge_done_commands(batch=1)
    # Then only the two done past the retention are gone
    assert deleted == 2
    left = set(await Command.all().values_list("id", flat=True))
    assert left == {recent_command.id, pending.id, failed.id}
    assert (await Command.get(id=pending.id)).status == "pending"
    # And a late delivery of a purged command's message has no effect, as for a done one
    reviews = await AuditEntry.filter(action="company_application.in_review").count()
    await asyncio.to_thread(broker.get_actor(companies.REVIEW_APPLICATION).send, str(old[0].id))
    await worker.drain()
    assert await AuditEntry.filter(action="company_application.in_review").count() == reviews
    assert await outbox.purge_done_commands() == 0


def _ready_message(redis_client, actor_name: str, *, age_seconds: float) -> None:
    """A ready message of ``actor_name`` at the tail of its queue, made ``age_seconds`` ago."""
    sent = message(actor_name, "x")
    made = Message(queue_name=sent.queue_name, actor_name=actor_name, args=sent.args, kwargs={},
                   options={"redis_message_id": sent.message_id},
                   message_timestamp=int((time.time() - age_seconds) * 1000))
    redis_client.hset(f"{TEST_NAMESPACE}:{sent.queue_name}.msgs", sent.message_id, made.encode())
    redis_client.rpush(f"{TEST_NAMESPACE}:{sent.queue_name}", sent.message_id)


async def test_the_relay_leaves_a_command_still_queued_behind_older_messages_and_reaches_other_queues(
        broker, redis_client, frozen_clock, settings):
    # Given a long queue: its oldest ready message is a minute old, and behind it the message of
    # a command sent now (no worker takes that queue here)
    _ready_message(redis_client, companies.REVIEW_APPLICATION, age_seconds=60)
    behind = await Command.create(actor_name=companies.REVIEW_APPLICATION, payload={}, run_at=frozen_clock.now(),
                                  enqueued_at=frozen_clock.now(), enqueue_count=1)
    _ready_message(redis_client, companies.REVIEW_APPLICATION, age_seconds=0)
    # ... and a command of another queue sent a moment later, whose message was lost (its queue is empty)
    frozen_clock.advance(timedelta(seconds=1))
    lost = await Command.create(actor_name="webhooks.fan_out", payload={}, run_at=frozen_clock.now(),
                                enqueued_at=frozen_clock.now(), enqueue_count=1)
    # When both are past the relay's bound, and the relay takes one command per look
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds + 1))
    sent = await outbox.relay_stale_commands(broker=broker, limit=1)
    # Then the lost one is sent again, though the other comes first by age; the other is not
    assert sent == 1
    assert (await Command.get(id=lost.id)).enqueue_count == 2
    assert (await Command.get(id=behind.id)).enqueue_count == 1
    assert redis_client.llen(f"{TEST_NAMESPACE}:companies") == 2
    assert await outbox.relay_stale_commands(broker=broker) == 0
    # When the queue has moved past it (its older messages taken) and its own message turns out lost
    redis_client.delete(f"{TEST_NAMESPACE}:companies", f"{TEST_NAMESPACE}:companies.msgs")
    # Then the relay sends it again
    assert await outbox.relay_stale_commands(broker=broker) == 1
    assert (await Command.get(id=behind.id)).enqueue_count == 2
    assert redis_client.llen(f"{TEST_NAMESPACE}:companies") == 1


async def test_one_look_of_the_relay_sends_every_stale_command_in_batches(broker, redis_client, frozen_clock,
                                                                           settings):
    # Given three commands whose messages were lost (their queue is empty), sent a second apart
    lost = []
    for _ in range(3):
        lost.append(await Command.create(actor_name=companies.REVIEW_APPLICATION, payload={},
                                         run_at=frozen_clock.now(), enqueued_at=frozen_clock.now(), enqueue_count=1))
        frozen_clock.advance(timedelta(seconds=1))
    frozen_clock.advance(timedelta(seconds=settings.outbox_relay_after_seconds))
    # When the relay looks once, one command per batch
    sent = await outbox.relay_stale_commands(broker=broker, limit=1)
    # Then it sent all three, each once, and the next look finds none
    assert sent == 3
    assert [(await Command.get(id=command.id)).enqueue_count for command in lost] == [2, 2, 2]
    assert redis_client.llen(f"{TEST_NAMESPACE}:companies") == 3
    assert await outbox.relay_stale_commands(broker=broker, limit=1) == 0
