"""Coalescing the work of messages that arrive together: one run for all, each caller answered.

A Dramatiq worker process runs its actors' coroutines on one event loop (dramatiq's AsyncIO
middleware), several at a time. When each message is a small batch of the same work (a signer's
wake-up for one signing session), every message pays a database transaction of its own. A
:class:`Coalescer` runs the work of the messages that arrive while a run is going as one
run after it, the way a database groups the commits that wait for the same flush:

1. :meth:`Coalescer.run` adds its items to the next run and waits for that run's end.
2. With no run going, that run starts at once (an idle process adds no delay); while one goes,
   the items of every caller that comes wait for it, then all run together.
3. A run's outcome is every one of its callers' outcome: a caller returns once a run that
   held its items returned, and raises what that run raised (its message is retried, as it
   would have been alone). The work must therefore accept any mix of items, in any number,
   and items repeated across runs (the messages' at-least-once delivery asks that already).

Nothing here outlives its process or is shared between processes: a message still acked only
when work holding its items ended without an error.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable, Generic, TypeVar

Item = TypeVar("Item")


class Coalescer(Generic[Item]):
    """Runs ``work(items)`` for the items of every caller waiting while the previous run went.

    Bound to the event loop of its first :meth:`run` (the worker process's loop).
    """

    def __init__(self, work: Callable[[list[Item]], Awaitable[None]]) -> None:
        self._work = work
        self._loop: asyncio.AbstractEventLoop | None = None
        self._items: list[Item] = []
        self._callers: list[asyncio.Future[None]] = []
        self._running = False
        self._task: asyncio.Future[None] | None = None

    async def run(self, items: list[Item]) -> None:
        """Have ``items`` worked on in the next run; return when it ended, raise what it raised."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (a worker started again): what the old one left is gone
            self._loop, self._items, self._callers, self._running = loop, [], [], False
        done: asyncio.Future[None] = loop.create_future()
        self._items.extend(items)
        self._callers.append(done)
        if not self._running:
            self._running = True
            self._task = asyncio.ensure_future(self._runs())  # held: the loop keeps only a weak reference
        await done

    async def _runs(self) -> None:
        try:
            while self._callers:
                items, callers = self._items, self._callers
                self._items, self._callers = [], []
                try:
                    await self._work(items)
                except BaseException as exc:  # noqa: BLE001 - handed to every caller of the run
                    if not isinstance(exc, Exception):  # cancelled: no run follows, the waiting fail too
                        callers, self._items, self._callers = callers + self._callers, [], []
                    for caller in callers:
                        if not caller.done():
                            caller.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
                else:
                    for caller in callers:
                        if not caller.done():
                            caller.set_result(None)
        finally:
            self._running = False
