"""The unit of work: an error rolls back, except one that asks to commit (QUORUM_APPROVAL_REQUIRED)."""

from __future__ import annotations

import pytest

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
