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
   requests that arrive meanwhile share the next one. The reads go over a connection of their own,
   outside the pool: under load every pooled connection is in a request's transaction, and a read
   queued behind them held every request up before its transaction even began (26 ms of a POST
   /transaction's 112 ms at 32 in flight on a pool of 10).
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
import inspect
import time
from typing import Any, Generic, TypeVar

import asyncpg
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


#: What ``asyncpg.connect`` takes of the pool's connection settings (the rest is the pool's own).
_CONNECT_PARAMETERS = frozenset(inspect.signature(asyncpg.connect).parameters) - {"dsn", "loop"}


class _GenerationReader:
    """The current generation, one database read shared by the requests that wait for it, over a
    connection of its own (opened on first use with the pool's settings, again after it failed)."""

    def __init__(self) -> None:
        self._next: asyncio.Future[int | None] | None = None
        self._running = False
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The reader's connection, and the pooled client (its settings) and loop it belongs to.
        self._connection: asyncpg.Connection | None = None
        self._owner: tuple[Any, asyncio.AbstractEventLoop] | None = None

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
                    rows = await self._fetch(client)
                except Exception as exc:  # noqa: BLE001 - handed to every waiting request
                    if not waiting.done():
                        waiting.set_exception(exc)
                        waiting.exception()  # retrieved here too: no "never retrieved" noise
                    continue
                if not waiting.done():
                    waiting.set_result(int(rows[0]["value"]) if rows else None)
        finally:
            self._running = False

    async def _fetch(self, client: Any) -> list[Any]:
        """The generation's row, read on the reader's connection; a connection that fails (a
        PostgreSQL restart closed it, which asyncpg may also report as a protocol state error
        while it learns of the closing) is replaced once, within the same read."""
        if not getattr(client, "_template", None):  # the pool not made yet: its settings are not known
            return (await client.execute_query(_GENERATION_SQL))[1]
        for attempt in (1, 2):
            connection = await self._connect(client)
            try:
                return await connection.fetch(_GENERATION_SQL)
            except Exception:  # noqa: BLE001 - the query is a constant one: a failure is the connection's
                self._forget()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _connect(self, client: Any) -> asyncpg.Connection:
        owner = (client, asyncio.get_running_loop())
        if self._connection is not None and (self._owner != owner or self._connection.is_closed()):
            self._forget()  # another pool (the database reopened) or another loop (a test's)
        if self._connection is None:
            settings = {key: value for key, value in client._template.items()  # noqa: SLF001
                        if key in _CONNECT_PARAMETERS}
            self._connection = await asyncpg.connect(password=client.password, **settings)
            self._owner = owner
        return self._connection

    def _forget(self) -> None:
        connection, self._connection, self._owner = self._connection, None, None
        if connection is not None and not connection.is_closed():
            try:
                connection.terminate()
            except RuntimeError:  # its event loop is closed already (a test's): nothing left to end
                pass


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


