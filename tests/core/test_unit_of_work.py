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
