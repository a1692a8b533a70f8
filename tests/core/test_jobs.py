"""Running an outbox command (core.jobs.execute_command): once, claimed and marked done in one
statement of the transaction its handler writes in."""

from __future__ import annotations

import asyncio

import pytest

from core import outbox
from core.jobs import execute_command
from core.outbox import Command
from core.rows import write_rows
from core.unit_of_work import unit_of_work
from tests.support.statements import statements_sent


async def _command() -> Command:
    async with unit_of_work():
        return await outbox.add_command(actor_name="tests.nothing", payload={"n": 1})


async def test_a_command_is_claimed_and_marked_done_in_one_statement_and_runs_once(database):
    command = await _command()
    seen = []

    async def handler(*, command: Command, n: int) -> None:
        seen.append(n)
        await write_rows(outbox.commands_to_write())  # what a withdrawal's write_change does

    # When the command runs (its handler writes a change)
    with statements_sent() as sent:
        assert await execute_command(str(command.id), handler)
    # Then its row was locked and marked done by one statement, and written no more after that
    assert [s for s in sent if "outbox_commands" in s] == [s for s in sent if s.startswith("UPDATE outbox_commands")]
    assert len([s for s in sent if "outbox_commands" in s]) == 1
    stored = await Command.get(id=command.id)
    assert seen == [1] and (stored.status, stored.attempts, stored.last_error) == ("done", 1, None)
    assert stored.started_at is not None and stored.finished_at is not None
    # And a second delivery finds it done: nothing runs
    assert not await execute_command(str(command.id), handler) and seen == [1]


async def test_a_handler_that_writes_no_change_still_has_its_command_marked_done(database):
    command = await _command()

    async def handler(*, command: Command, n: int) -> None:
        return None

    with statements_sent() as sent:
        assert await execute_command(str(command.id), handler)
    assert (await Command.get(id=command.id)).status == "done"
    assert sent == ["BEGIN;", sent[1], "COMMIT;"] and sent[1].startswith("UPDATE outbox_commands")


async def test_two_deliveries_at_once_run_the_command_once(database):
    command = await _command()
    runs = []

    async def handler(*, command: Command, n: int) -> None:
        runs.append(command.attempts)
        await asyncio.sleep(0.3)  # the other delivery arrives while this one holds the command

    # When the same command is delivered twice at once
    ran = await asyncio.gather(execute_command(str(command.id), handler), execute_command(str(command.id), handler))
    # Then one delivery ran it, the other waited for it and found it done
    assert sorted(ran) == [False, True] and runs == [1]
    assert (await Command.get(id=command.id)).attempts == 1


async def test_a_command_that_failed_before_is_claimed_again_by_its_retry(database):
    command = await _command()

    async def failing(*, command: Command, n: int) -> None:
        raise RuntimeError("the node is down")

    with pytest.raises(RuntimeError):
        await execute_command(str(command.id), failing)
    stored = await Command.get(id=command.id)
    assert (stored.status, stored.attempts, stored.last_error) == ("pending", 1, "RuntimeError: the node is down")

    async def working(*, command: Command, n: int) -> None:
        return None

    # When its retry runs and succeeds: done, its second attempt
    assert await execute_command(str(command.id), working)
    stored = await Command.get(id=command.id)
    assert (stored.status, stored.attempts, stored.last_error) == ("done", 2, None)


class _CommittingError(Exception):
    commit_unit_of_work = True


async def test_an_error_that_commits_the_handlers_change_leaves_its_command_not_done(database):
    command = await _command()

    async def handler(*, command: Command, n: int) -> None:
        await write_rows(outbox.commands_to_write())
        raise _CommittingError("refused, but what was written stays")

    # When the handler wrote its change (carrying the command) and then raised an error that commits
    with pytest.raises(_CommittingError):
        await execute_command(str(command.id), handler)
    # Then the command is not done: its failure is recorded, and its retry will run it again
    stored = await Command.get(id=command.id)
    assert stored.status == "pending" and stored.attempts == 1 and "refused" in (stored.last_error or "")


async def test_the_claim_locks_the_row_the_handler_locks_first_and_hands_it_over(database):
    command = await _command()
    async with unit_of_work():
        other = await outbox.add_command(actor_name="tests.other", payload={"n": 2})
        command.payload = {"n": 1, "other": str(other.id)}
        await command.save()
    lock = outbox.RowLock(model=Command, payload_key="other", filters=(("actor_name", "tests.other"),))
    taken = []

    async def handler(*, command: Command, n: int, other: str) -> None:
        taken.append(outbox.take_locked(Command, other))
        taken.append(outbox.take_locked(Command, other))  # given once: a second lock reads it again

    # When the command runs with the other command's row to lock
    with statements_sent() as sent:
        assert await execute_command(str(command.id), handler, lock=lock)
    # Then its claim's one statement locked that row too (after the command's) and handed it over
    assert sent == ["BEGIN;", sent[1], "COMMIT;"] and "FOR UPDATE) r ON true" in sent[1]
    assert taken[0] is not None and taken[0].id == other.id and taken[0].actor_name == "tests.other"
    assert taken[1] is None
    # And a row that is not there (or not as filtered) is handed over as nothing: the handler looks itself
    missing = await _command()
    async with unit_of_work():
        missing.payload = {"n": 1, "other": str(command.id)}  # not a tests.other command
        await missing.save()
    taken.clear()
    assert await execute_command(str(missing.id), handler, lock=lock)
    assert taken == [None, None]
