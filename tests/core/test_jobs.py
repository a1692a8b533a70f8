"""Running an outbox command (core.jobs.execute_command): once, and marked done with the change
its handler writes."""

from __future__ import annotations

import pytest

from core import outbox
from core.jobs import execute_command
from core.outbox import Command
from core.rows import write_rows
from core.unit_of_work import unit_of_work


async def _command() -> Command:
    async with unit_of_work():
        return await outbox.add_command(actor_name="tests.nothing", payload={"n": 1})


def _counting_saves(monkeypatch) -> list[str]:
    saves: list[str] = []
    original = Command.save

    async def save(self, *args, **kwargs):
        saves.append(str(self.id))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(Command, "save", save)
    return saves


async def test_the_change_a_handler_writes_carries_its_command_marked_done(database, monkeypatch):
    command = await _command()
    saves = _counting_saves(monkeypatch)
    seen = []

    async def handler(*, command: Command, n: int) -> None:
        seen.append(n)
        await write_rows(outbox.commands_to_write())  # what a withdrawal's write_change does
        assert outbox.commands_to_write() == []  # written once

    # When the command runs and its handler writes a change
    assert await execute_command(str(command.id), handler)
    # Then the command is done, written by that change's statement and not saved again
    stored = await Command.get(id=command.id)
    assert seen == [1] and (stored.status, stored.attempts, stored.last_error) == ("done", 1, None)
    assert stored.started_at is not None and stored.finished_at is not None
    assert saves == []
    # And a second delivery finds it done: nothing runs
    assert not await execute_command(str(command.id), handler) and seen == [1]


async def test_a_handler_that_writes_no_change_still_has_its_command_marked_done(database, monkeypatch):
    command = await _command()
    saves = _counting_saves(monkeypatch)

    async def handler(*, command: Command, n: int) -> None:
        return None

    assert await execute_command(str(command.id), handler)
    assert (await Command.get(id=command.id)).status == "done" and saves == [str(command.id)]


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
