"""The unit of work: an error rolls back, except one that asks to commit (QUORUM_APPROVAL_REQUIRED)."""

from __future__ import annotations

import asyncio

import pytest
from tortoise import connections
from tortoise.backends.asyncpg.client import TransactionWrapper

from core.unit_of_work import unit_of_work
from models.audit import AuditEntry


class _Refusal(Exception):
    """Like the change approvals' 403: what the block wrote must survive the refusal."""

    commit_unit_of_work = True


async def _write_then_raise(error: Exception, *, nested: bool = False) -> None:
    async with unit_of_work():
        if nested:
            async with unit_of_work():
                await AuditEntry.create(action="test.kept", object_type="test", actor_type="system")
                raise error
        await AuditEntry.create(action="test.kept", object_type="test", actor_type="system")
        raise error


async def test_an_error_that_commits_keeps_the_writes_and_still_raises(database):
    # When a block writes and raises an error marked commit_unit_of_work (also from a nested one)
    for nested in (False, True):
        with pytest.raises(_Refusal):
            await _write_then_raise(_Refusal("needs approval"), nested=nested)
    # Then the writes are committed and the error reached the caller
    assert await AuditEntry.filter(action="test.kept").count() == 2


async def test_any_other_error_rolls_back(database):
    with pytest.raises(ValueError):
        await _write_then_raise(ValueError("boom"))
    assert await AuditEntry.filter(action="test.kept").count() == 0


async def test_a_unit_of_work_whose_begin_failed_leaves_the_task_and_the_pool_as_they_were(database, monkeypatch):
    client = connections.get("default")
    # Given pooled connections that PostgreSQL closed a moment before their BEGIN (a restart),
    # once more than the pool has connections
    begin = TransactionWrapper.begin

    async def begin_on_a_closed_connection(self: TransactionWrapper) -> None:
        # What a server restart leaves in the pool: a socket the server closed, which the
        # driver has not noticed yet
        self._connection._con._transport.abort()  # noqa: SLF001
        await begin(self)

    with monkeypatch.context() as patch:
        patch.setattr(TransactionWrapper, "begin", begin_on_a_closed_connection)
        for _ in range(client.pool_maxsize + 1):  # type: ignore[attr-defined]
            # When a unit of work starts on one
            with pytest.raises(Exception):  # noqa: B017,PT011 - whatever the driver says about it
                async with unit_of_work():
                    pass

    # Then the same task commits its next unit of work (not a savepoint on the dead connection),
    # and the pool still has connections to give (none was kept by a failed start)
    async def read() -> int:
        async with unit_of_work():
            # (the transaction's connection: the task's own)
            return (await connections.get("default").execute_query_dict("SELECT 1 AS one"))[0]["one"]

    assert await asyncio.wait_for(read(), timeout=10) == 1
    results = await asyncio.wait_for(asyncio.gather(*(read() for _ in range(client.pool_maxsize))), timeout=10)  # type: ignore[attr-defined]
    assert results == [1] * client.pool_maxsize  # type: ignore[attr-defined]


async def test_units_of_work_that_commit_together_share_a_hop_and_each_gets_its_own_results(broker, redis_client,
                                                                                            monkeypatch):
    from dramatiq.brokers.redis import RedisBroker

    from core import outbox
    from core import unit_of_work as units
    from core.outbox import Command
    from tests.support.environment import TEST_NAMESPACE

    # Given a first after-commit hop that takes a while, so that the units of work committing
    # meanwhile wait for the next one together; one of them sends through a broker whose Redis
    # cannot be reached
    hops: list[int] = []
    send_all = units._send_all  # noqa: SLF001

    async def slow_first_hop(hop: list) -> list:
        hops.append(len(hop))
        if len(hops) == 1:
            await asyncio.sleep(0.3)
        return await send_all(hop)

    monkeypatch.setattr(units, "_send_all", slow_first_hop)
    unreachable = RedisBroker(url="redis://127.0.0.1:1/0", socket_connect_timeout=0.5)

    async def unit(name: str, target: object = None) -> Command:
        async with unit_of_work(broker=target):  # type: ignore[arg-type]
            return await outbox.add_command(actor_name="companies.review_application", payload={"name": name})

    queued_before = redis_client.hlen(f"{TEST_NAMESPACE}:companies.msgs")
    first = asyncio.create_task(unit("first"))
    await asyncio.sleep(0.1)  # the first hop is on its way
    # When four more commit while it is
    others = await asyncio.gather(unit("a"), unit("b"), unit("unreachable", unreachable), unit("c"))
    await first
    # Then they left in one hop, the first in its own
    assert hops == [1, 4]
    # And each unit of work recorded its own outcome: the commands sent keep the stamp they were
    # written with, the one whose enqueue failed had it taken back (the relay's)
    for command, name in zip(others, ("a", "b", "unreachable", "c")):
        stored = await Command.get(id=command.id)
        assert (stored.enqueue_count, stored.enqueued_at is None) == ((0, True) if name == "unreachable" else (1, False))
    # And the four messages that could be sent (the first unit's among them) are in Redis
    assert redis_client.hlen(f"{TEST_NAMESPACE}:companies.msgs") == queued_before + 4


async def test_a_hop_sends_its_commands_wakeups_and_nudges_in_one_round_trip_once_their_keys_are_taken(
        broker, redis_client, monkeypatch):
    from core import outbox
    from core.unit_of_work import nudge_after_commit, wake_after_commit
    from tests.support.environment import TEST_NAMESPACE
    from tests.support.redis_trips import count_trips

    trips = count_trips(monkeypatch, asynchronous=True)

    async def unit() -> None:
        async with unit_of_work():
            await outbox.add_command(actor_name="companies.review_application", payload={})
            await outbox.add_command(actor_name="probe.batch", payload={}, coalesce=True)
            nudge_after_commit("probe.nudged", "x", delay_ms=60_000)
            wake_after_commit("probe.woken", "item")

    # Given a unit of work with a command, a coalesced command, a nudge and a wake-up: the first
    # time, the coalesced actor's and the nudge's keys are free, so their messages need a second trip
    await unit()
    assert len(trips) == 2
    # When another commits while both messages are still on their way
    trips.clear()
    await unit()
    # Then everything it sends leaves in one round trip
    assert len(trips) == 1
    assert redis_client.hlen(f"{TEST_NAMESPACE}:probe.msgs") == 3  # two wake-ups and the batch actor's message
