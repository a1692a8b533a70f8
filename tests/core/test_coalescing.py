"""core.coalescing: the work of callers that arrive during a run is one run after it."""

from __future__ import annotations

import asyncio

import pytest

from core.coalescing import Coalescer


class _Work:
    """Work that records its runs and holds each one until released."""

    def __init__(self, fail_on: str | None = None) -> None:
        self.runs: list[list[str]] = []
        self.fail_on = fail_on
        self.release = asyncio.Event()

    async def __call__(self, items: list[str]) -> None:
        self.runs.append(list(items))
        await self.release.wait()
        if self.fail_on in items:
            raise RuntimeError(f"{self.fail_on} failed")


async def _started(work: _Work, runs: int) -> None:
    while len(work.runs) < runs:
        await asyncio.sleep(0)


async def test_a_lone_caller_runs_at_once_and_returns_when_its_run_ended():
    # Given no run going
    work = _Work()
    coalescer = Coalescer(work)
    # When one caller comes
    caller = asyncio.ensure_future(coalescer.run(["a"]))
    await _started(work, 1)
    # Then its run starts without waiting for others, and the caller returns only once it ended
    assert work.runs == [["a"]] and not caller.done()
    work.release.set()
    await caller


async def test_callers_that_come_during_a_run_are_one_run_after_it():
    # Given a run going
    work = _Work()
    coalescer = Coalescer(work)
    first = asyncio.ensure_future(coalescer.run(["a"]))
    await _started(work, 1)
    # When two callers come while it goes
    second = asyncio.ensure_future(coalescer.run(["b"]))
    third = asyncio.ensure_future(coalescer.run(["c", "d"]))
    await asyncio.sleep(0)
    assert work.runs == [["a"]]  # nothing starts beside the run going
    work.release.set()
    await asyncio.gather(first, second, third)
    # Then their items ran together in the one run after it
    assert work.runs == [["a"], ["b", "c", "d"]]


async def test_a_failed_run_fails_each_of_its_callers_and_the_next_run_still_goes():
    # Given a run going, and a run waiting whose work will fail
    work = _Work(fail_on="b")
    coalescer = Coalescer(work)
    first = asyncio.ensure_future(coalescer.run(["a"]))
    await _started(work, 1)
    second = asyncio.ensure_future(coalescer.run(["b"]))
    third = asyncio.ensure_future(coalescer.run(["c"]))
    await asyncio.sleep(0)
    work.release.set()
    await first
    # When that run fails, both its callers raise what it raised (their messages are retried)
    for caller in (second, third):
        with pytest.raises(RuntimeError, match="b failed"):
            await caller
    # Then a caller that comes later runs as before
    await coalescer.run(["e"])
    assert work.runs == [["a"], ["b", "c"], ["e"]]


def test_a_new_event_loop_starts_afresh_whatever_the_old_one_left():
    # Given a coalescer whose run was left going on a loop that no longer runs (a worker stopped)
    work = _Work()
    coalescer = Coalescer(work)
    left: list[asyncio.Future[None]] = []

    async def leave_a_run_going() -> None:
        left.append(asyncio.ensure_future(coalescer.run(["a"])))
        await _started(work, 1)

    old, new = asyncio.new_event_loop(), asyncio.new_event_loop()
    try:
        old.run_until_complete(leave_a_run_going())
        old_release = work.release

        # When it is used on a new loop, then its caller runs at once instead of waiting for that run
        async def run_again() -> None:
            work.release = asyncio.Event()
            work.release.set()
            await asyncio.wait_for(coalescer.run(["b"]), timeout=5)

        new.run_until_complete(run_again())
        assert work.runs == [["a"], ["b"]]
    finally:
        async def finish_the_old_run() -> None:
            old_release.set()
            await left[0]

        old.run_until_complete(finish_the_old_run())
        old.close()
        new.close()
