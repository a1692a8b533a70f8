"""The per-process cache of who is calling: token -> principal, workspace id -> workspace.

An authenticated read spent half its time authenticating: the token with its user and device,
the memberships, the workspace, each through tortoise's query building on every request. This
cache serves them from the process's memory, under these rules, in the order they apply:

1. **One generation per request.** Before using the cache, a request reads the revocation
   generation, the one row of ``auth_generation`` (migration 0310). Deferred triggers change it
   in the very transaction that changes a user, a device, a token, a membership or a workspace,
   at its commit: once the revocation has committed, every read of the generation that starts
   afterwards sees the new value, on every process. Nothing is sent between processes, so no
   invalidation can be lost (a crash after commit loses nothing: the bump was part of it).
2. **Reads that started after the request.** Concurrent requests share one read
   (:class:`_GenerationReader`): a request joins the read that is sent next, never one already on
   its way, so the value it gets was read after it arrived. One read is in flight at a time; the
   requests that arrive meanwhile share the next one.
3. **An entry is used only under the generation it was loaded under.** The generation is read
   before the database rows are, so an entry can be stale only under a generation that is no
   longer current; a new generation empties the cache.
4. **Bounded.** Entries live at most :data:`MAX_AGE_SECONDS` and the cache holds at most
   :data:`MAX_ENTRIES` of each kind (it is emptied when full); the token's own expiry is checked by
   the caller on every use. Unknown and refused tokens are never cached.

The cached model instances are shared by the requests that use them: read-only.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Generic, TypeVar

from tortoise import connections

#: An entry is reloaded after this long even when nothing changed (belt and braces: the
#: generation is what makes revocation immediate).
MAX_AGE_SECONDS = 60.0
#: Entries of each kind a process keeps; the cache is emptied when it is full.
MAX_ENTRIES = 10_000

_GENERATION_SQL = "SELECT value FROM auth_generation WHERE id = 1"

V = TypeVar("V")


def _plain_client() -> Any:
    """The pooled database client, even when the caller is inside a transaction: the generation
    is read outside it, on a connection of its own, so that it is the committed value."""
    client = connections.get("default")
    while getattr(client, "_parent", None) is not None:
        client = client._parent
    return client


class _GenerationReader:
    """The current generation, one database read shared by the requests that wait for it."""

    def __init__(self) -> None:
        self._next: asyncio.Future[int | None] | None = None
        self._running = False
        self._loop: asyncio.AbstractEventLoop | None = None

    async def read(self) -> int | None:
        loop = asyncio.get_running_loop()
        waiting = self._next
        if waiting is None or waiting.get_loop() is not loop:
            waiting = self._next = loop.create_future()
            if not self._running or self._loop is not loop:
                self._running, self._loop = True, loop
                loop.create_task(self._run(_plain_client()))
        return await asyncio.shield(waiting)

    async def _run(self, client: Any) -> None:
        try:
            while self._next is not None:
                # Taken before the read is sent: whoever joins from now on waits for the next one.
                waiting, self._next = self._next, None
                try:
                    rows = (await client.execute_query(_GENERATION_SQL))[1]
                except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                    if not waiting.done():
                        waiting.set_exception(exc)
                        waiting.exception()  # retrieved here too: no "never retrieved" noise
                    continue
                if not waiting.done():
                    waiting.set_result(int(rows[0]["value"]) if rows else None)
        finally:
            self._running = False


class _Entries(Generic[V]):
    """Values by key, all loaded under one generation, each with when it was loaded."""

    def __init__(self) -> None:
        self._generation: int | None = None
        self._values: dict[Any, tuple[float, V]] = {}

    def get(self, key: Any, generation: int | None) -> V | None:
        if generation is None or generation != self._generation:
            return None
        found = self._values.get(key)
        if found is None or time.monotonic() - found[0] > MAX_AGE_SECONDS:
            return None
        return found[1]

    def put(self, key: Any, generation: int | None, value: V) -> None:
        if generation is None:
            return
        if generation != self._generation or len(self._values) >= MAX_ENTRIES:
            # A new generation: whatever was loaded before it may be stale.
            self._values.clear()
            self._generation = generation
        self._values[key] = (time.monotonic(), value)

    def clear(self) -> None:
        self._values.clear()
        self._generation = None


_reader = _GenerationReader()
#: SHA-256 of the token -> the principal (domain.auth.Principal) it authenticates.
principals: _Entries[Any] = _Entries()
#: Workspace id -> the workspace row (models.workspaces.Workspace).
workspaces: _Entries[Any] = _Entries()


async def generation() -> int | None:
    """The revocation generation, read after the call started (None: no cache may be used)."""
    return await _reader.read()


def clear() -> None:
    """Forget every entry (tests that change the clock or the schema under the cache)."""
    principals.clear()
    workspaces.clear()


