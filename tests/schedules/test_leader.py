"""Leader election (schedules/leader.py) between schedulers: only the leader runs a job, however
many jobs ask at once and whatever happens to its connection; the relay re-enqueues stale
commands once."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Awaitable, Callable
from urllib.parse import parse_qs, urlsplit, urlunsplit

import asyncpg

from core.outbox import Command
from schedules.leader import LeaderLock
from schedules.main import Scheduler


async def _stale_commands(frozen_clock, count: int) -> list[Command]:
    created = [await Command.create(actor_name="companies.review_application",
                                    payload={"application_id": "00000000-0000-0000-0000-000000000000"})
               for _ in range(count)]
    frozen_clock.advance(timedelta(minutes=5))
    return created


async def test_two_schedulers_run_each_job_once(scheduler_settings, broker, frozen_clock):
    first, second = Scheduler(scheduler_settings, broker=broker), Scheduler(scheduler_settings, broker=broker)
    try:
        commands = await _stale_commands(frozen_clock, 3)
        relay_a = next(job for job in first.jobs() if job.name == "outbox.relay")
        relay_b = next(job for job in second.jobs() if job.name == "outbox.relay")
        # When both schedulers fire the relay at the same moment
        ran = await asyncio.gather(first.run_job(relay_a), second.run_job(relay_b))
        # Then exactly one of them is the leader and ran it, and each command was enqueued once
        assert sorted(ran) == [False, True]
        for command in commands:
            assert (await Command.get(id=command.id)).enqueue_count == 1
    finally:
        await first.stop()
        await second.stop()


async def test_follower_takes_over_when_the_leader_stops(scheduler_settings, broker, frozen_clock):
    leader, follower = Scheduler(scheduler_settings, broker=broker), Scheduler(scheduler_settings, broker=broker)
    try:
        job = leader.jobs()[0]
        assert await leader.run_job(job) is True
        assert await follower.run_job(job) is False
        # When the leader's process goes away (its connection closes)
        await leader.stop()
        # Then the follower becomes leader on its next tick
        assert await follower.run_job(job) is True
    finally:
        await leader.stop()
        await follower.stop()


async def _connections(settings) -> int:
    """Other connections to this database, right now."""
    conn = await asyncpg.connect(settings.database_url)
    try:
        return await conn.fetchval("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                   "AND pid <> pg_backend_pid()")
    finally:
        await conn.close()


async def test_many_concurrent_acquisitions_elect_exactly_one_leader(scheduler_settings):
    # Given two processes' locks, each asked by many jobs at the same moment
    first = LeaderLock(database_url=scheduler_settings.database_url, key=scheduler_settings.scheduler_lock_key)
    second = LeaderLock(database_url=scheduler_settings.database_url, key=scheduler_settings.scheduler_lock_key)
    before = await _connections(scheduler_settings)
    try:
        results = await asyncio.gather(*(lock.acquire() for _ in range(25) for lock in (first, second)))
        by_lock = {"first": set(results[0::2]), "second": set(results[1::2])}
        # Then each process has one answer for all its jobs, and exactly one of them leads
        assert sorted(map(tuple, by_lock.values())) == [(False,), (True,)], by_lock
        assert first.held != second.held
        # And each process opened one connection, not one per job (none left holding the lock unseen)
        assert await _connections(scheduler_settings) - before == 2
        # And asked again, at once, nothing changes
        again = await asyncio.gather(*(lock.acquire() for _ in range(10) for lock in (first, second)))
        assert set(again[0::2]) == by_lock["first"] and set(again[1::2]) == by_lock["second"]
    finally:
        await first.release()
        await second.release()
    assert await _connections(scheduler_settings) == before


class CuttableLink:
    """A TCP relay on loopback to PostgreSQL (over TCP, or over its Unix socket: the embedded
    server listens on no port) that can be cut like a network: the server's side closes (its
    backend ends, its locks are released) while the client's socket hears nothing."""

    def __init__(self, server_url: str) -> None:
        self.connect = _opener(server_url)
        self.cut = False
        self._upstreams: list[asyncio.StreamWriter] = []
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self._server.sockets[0].getsockname()[1]

    async def _relay(self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        server_reader, server_writer = await self.connect()
        self._upstreams.append(server_writer)

        async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            while not self.cut and (data := await reader.read(65536)):
                if not self.cut:
                    writer.write(data)
                    await writer.drain()

        await asyncio.gather(pump(client_reader, server_writer), pump(server_reader, client_writer),
                             return_exceptions=True)

    def sever(self) -> None:
        self.cut = True
        for upstream in self._upstreams:
            upstream.close()

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()


def _opener(server_url: str) -> Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]:
    """How to reach the server of ``server_url``: its host and port, or the socket file in the
    folder that ``?host=`` names (libpq's ``.s.PGSQL.<port>``), as the embedded server's URL does."""
    parts = urlsplit(server_url)
    host = parts.hostname or parse_qs(parts.query).get("host", [""])[0]
    port = parts.port or 5432
    if host.startswith("/"):
        return lambda: asyncio.open_unix_connection(f"{host}/.s.PGSQL.{port}")
    return lambda: asyncio.open_connection(host or "127.0.0.1", port)


async def test_a_leader_whose_connection_is_killed_stops_leading_and_another_takes_over(scheduler_settings):
    # Given a leader that reaches PostgreSQL through a link that can be cut, and a follower
    parts = urlsplit(scheduler_settings.database_url)
    link = CuttableLink(scheduler_settings.database_url)
    port = await link.start()
    through_link = urlunsplit((parts.scheme, f"{parts.username or 'postgres'}@127.0.0.1:{port}", parts.path, "", ""))
    key = scheduler_settings.scheduler_lock_key
    leader = LeaderLock(database_url=through_link, key=key, check_timeout=0.5)
    follower = LeaderLock(database_url=scheduler_settings.database_url, key=key, check_timeout=0.5)
    try:
        assert await leader.acquire() is True
        assert await follower.acquire() is False
        # When the leader's connection is killed on the server's side, unseen by the leader's socket
        link.sever()
        await asyncio.sleep(0.2)
        # Then the follower becomes leader, and the old leader knows it no longer is: never two
        assert await follower.acquire() is True
        assert await asyncio.gather(*(leader.acquire() for _ in range(3))) == [False] * 3
        assert leader.held is False and await follower.acquire() is True
    finally:
        # Bounded: a lock that still trusts the cut connection would wait for it forever.
        await asyncio.wait_for(asyncio.gather(leader.release(), follower.release(), return_exceptions=True), 10)
        await link.stop()
