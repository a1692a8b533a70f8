"""The worker's broker: the database opens before the first message and closes after the last, a
woken consumer finds a message enqueued on an idle queue at once, and a delayed message goes on
when it is due. An idle consumer looks at its queue only when woken, after a look that found
messages, or every LOOK_WITHOUT_TOKEN_SECONDS; each process runs dramatiq's maintenance on a
clock, so a dead worker's messages still come back."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import dramatiq
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker
from dramatiq.common import current_millis
from dramatiq.message import Message
from dramatiq.middleware import AsyncIO

import core.broker
from core.broker import (
    DatabaseLifecycle,
    NotifyingRedisBroker,
    ParentWatch,
    UvloopAsyncIO,
    _NotifiedConsumer,
    create_broker,
)
from custody.dev import free_port
from custody.embedded import process_alive
from models import ORM_APP
from tests.support.environment import TEST_NAMESPACE


@contextlib.contextmanager
def _probe_broker(settings, name: str) -> Iterator[tuple[NotifyingRedisBroker, Any]]:
    """A broker of a namespace of its own on the test Redis, and an actor that does nothing on
    queue ``<name>_probe`` (actor ``<name>_probe.ping``); the broker closed afterwards."""
    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-{name}")
    try:
        @dramatiq.actor(broker=broker, queue_name=f"{name}_probe", actor_name=f"{name}_probe.ping")
        def ping() -> None:
            pass

        yield broker, ping
    finally:
        broker.close()
from tests.support.redis_trips import count_trips
from tests.support.worker import wait_for


def test_a_worker_opens_its_database_before_taking_messages_and_closes_it_after_the_last(settings):
    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-lifecycle", orm_app=ORM_APP)
    try:
        kinds = [type(m) for m in broker.middleware]
        # "before" hooks run in order, "after" hooks in reverse: the loop exists before the database
        # opens, and is still running when the database closes
        assert kinds.index(UvloopAsyncIO) < kinds.index(DatabaseLifecycle) and ParentWatch in kinds
        assert issubclass(UvloopAsyncIO, AsyncIO)
        lifecycle = broker.middleware[kinds.index(DatabaseLifecycle)]
        # Opening happens before the worker threads start (not after boot, when they already run)
        assert type(lifecycle).before_worker_boot is not dramatiq.Middleware.before_worker_boot
        assert type(lifecycle).after_worker_boot is dramatiq.Middleware.after_worker_boot
        # Closing waits for in-flight messages: after shutdown, never before it
        assert type(lifecycle).before_worker_shutdown is dramatiq.Middleware.before_worker_shutdown
        assert type(lifecycle).after_worker_shutdown is not dramatiq.Middleware.after_worker_shutdown
    finally:
        broker.close()


async def test_an_idle_consumer_is_woken_by_an_enqueue(settings):
    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-wake", event_loop=asyncio.get_running_loop())
    started: list[float] = []

    @dramatiq.actor(broker=broker, queue_name="wake_probe", actor_name="wake_probe.ping")
    def ping(sent_at: float) -> None:
        started.append(time.time() - sent_at)

    # A worker whose idle poll would otherwise wait up to 2 s
    worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=2000)
    worker.start()
    try:
        await asyncio.sleep(2.5)  # idle long enough for the poll to back off fully
        for _ in range(5):
            await asyncio.to_thread(ping.send, time.time())
            await asyncio.sleep(0.3)
        await asyncio.sleep(0.2)
    finally:
        await asyncio.to_thread(worker.stop, 5000)
        broker.close()
    assert len(started) == 5 and max(started) < 0.5


class _Recorder:
    """What a :class:`_NotifiedConsumer` needs of its broker, recorded instead of sent: each fetch
    is counted and returns the next of ``found`` (then nothing); each wait on the wake-up list is
    recorded (seconds) instead of waited, and returns the next of ``tokens`` (then none, as a wait
    that timed out)."""

    namespace = "probe"

    def __init__(self) -> None:
        self.fetches = 0
        self.found: list[list[bytes]] = []
        self.waits: list[float] = []
        self.tokens: list[object] = []
        self.client = self

    def do_fetch(self, queue_name: str, prefetch: int) -> list[bytes]:
        self.fetches += 1
        return self.found.pop(0) if self.found else []

    def blpop(self, keys: list[str], timeout: float) -> object:
        self.waits.append(timeout)
        return self.tokens.pop(0) if self.tokens else None


def _next_found(consumer: _NotifiedConsumer, *, within: float) -> MessageProxy | None:
    """The first message the consumer hands out within ``within`` seconds (None: none did)."""
    started = time.monotonic()
    found = None
    while found is None and time.monotonic() - started < within:
        found = next(consumer)
    return found


def test_a_delay_queue_consumer_waits_no_longer_than_until_its_next_delayed_message_is_due():
    broker = _Recorder()
    consumer = _NotifiedConsumer(broker, "probe.DQ", 10, 2000)
    consumer.misses = 10  # idle long enough to wait about its whole timeout (2 s, less a jitter)
    next(consumer)
    assert broker.waits[0] > 1.0
    # Given a delayed message handed out, due in 300 ms
    due = current_millis() + 300
    consumer.message_cache = [Message(queue_name="probe.DQ", actor_name="probe.ping", args=(), kwargs={},
                                      options={"eta": due}).encode()]
    assert next(consumer) is not None
    consumer.misses = 10
    # When the consumer waits for more, it waits only until that message is due
    next(consumer)
    assert 0.2 < broker.waits[-1] <= 0.3
    # And once it is due, it does not wait at all (its thread hands the message on), then idles again
    while current_millis() < due:
        time.sleep(0.01)
    waits = len(broker.waits)
    assert next(consumer) is None and len(broker.waits) == waits
    consumer.misses = 10
    next(consumer)
    assert broker.waits[-1] > 1.0


async def test_a_loops_redis_client_is_closed_when_its_process_stops_and_made_again_if_needed(settings):
    from core.broker import Trip, send_trip

    # Given a broker that sent a message from this event loop (on a client of the loop)
    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-close")
    try:
        (sent,) = (await send_trip(broker, Trip(messages=[(Message(queue_name="close", actor_name="close.ping",
                                                                   args=(), kwargs={}, options={}), None)]))).enqueued
        assert not isinstance(sent, Exception)
        client = broker.async_client()
        assert client is not None
        connection = await client.client_id()  # the connection the send used, back in the pool
        assert connection in {int(c["id"]) for c in broker.client.client_list()}
        # When the loop's process stops
        await broker.close_async_client()
        # Then its connection is closed on the server (which learns of it a moment later), and a
        # later send on the loop makes a new client
        await wait_for(lambda: connection not in {int(c["id"]) for c in broker.client.client_list()}, timeout=5)
        assert broker.async_client() is not client
        await broker.close_async_client()
        await broker.close_async_client()  # nothing left to close: no error
    finally:
        broker.client.delete(*broker.client.keys(f"{TEST_NAMESPACE}-close:*") or ["none"])
        broker.close()


def test_messages_enqueued_together_leave_in_one_round_trip_each_with_its_own_outcome(settings, redis_client,
                                                                                      monkeypatch):
    from dramatiq.message import Message
    from dramatiq.middleware import MiddlewareError

    from core.broker import Trip, send_trip

    broker = create_broker(settings, namespace=f"{TEST_NAMESPACE}-many")
    refused = "refused.ping"

    class Refuse(dramatiq.Middleware):
        def before_enqueue(self, broker, message, delay):
            if message.actor_name == refused:
                raise MiddlewareError("refused by a middleware")

    broker.add_middleware(Refuse())
    trips = count_trips(monkeypatch)

    def ping(actor_name: str, n: int) -> Message:
        return Message(queue_name="many_probe", actor_name=actor_name, args=(n,), kwargs={}, options={})

    try:
        # A Redis that lost its scripts (restarted, SCRIPT FLUSH; here a script it never had, so as
        # to leave other clients of this Redis alone): loaded again, sent again
        broker.scripts["dispatch"].sha = "0" * 40
        results = broker.enqueue_many([(ping("many.ping", 1), None), (ping(refused, 2), None),
                                       (ping("many.ping", 3), 5000)])
        # Each item has its outcome: enqueued (the delayed one on the delay queue), or the error
        assert [type(r).__name__ for r in results] == ["Message", "MiddlewareError", "Message"]
        assert results[0].queue_name == "many_probe" and results[2].queue_name == "many_probe.DQ"
        assert redis_client.hlen(f"{TEST_NAMESPACE}-many:many_probe.msgs") == 1
        assert redis_client.hlen(f"{TEST_NAMESPACE}-many:many_probe.DQ.msgs") == 1
        # and wake-up tokens for the queue; round trips: the one that found no script, its loading, the resend
        assert redis_client.llen(f"{TEST_NAMESPACE}-many:many_probe.notify") >= 1
        assert len(trips) == 3
        # Once loaded: one round trip for any number of messages
        trips.clear()
        assert all(isinstance(r, Message) for r in broker.enqueue_many([(ping("many.ping", n), None)
                                                                        for n in range(10)]))
        assert len(trips) == 1 and redis_client.hlen(f"{TEST_NAMESPACE}-many:many_probe.msgs") == 11
        # And from an event loop, on the loop's own client: the same, the script lost or not
        broker.scripts["dispatch"].sha = "0" * 40
        async_trips = count_trips(monkeypatch, asynchronous=True)
        results = asyncio.run(broker.enqueue_many_async([(ping("many.ping", 20), None), (ping(refused, 21), None),
                                                         (ping("many.ping", 22), 5000)]))
        assert [type(r).__name__ for r in results] == ["Message", "MiddlewareError", "Message"]
        assert len(async_trips) == 3 and redis_client.hlen(f"{TEST_NAMESPACE}-many:many_probe.msgs") == 12
        async_trips.clear()
        results = asyncio.run(broker.enqueue_many_async([(ping("many.ping", n), None) for n in range(5)]))
        assert all(isinstance(r, Message) for r in results) and len(async_trips) == 1
        assert redis_client.hlen(f"{TEST_NAMESPACE}-many:many_probe.msgs") == 17
        # Claims and messages in one round trip: whether each key was free, each message's outcome
        async_trips.clear()
        claims = [(f"{TEST_NAMESPACE}-many:claim", 5000), (f"{TEST_NAMESPACE}-many:claim", 5000)]
        result = asyncio.run(send_trip(broker, Trip(claims=claims, messages=[(ping("many.ping", 30), None)])))
        assert result.claimed == [True, False] and [type(r).__name__ for r in result.enqueued] == ["Message"]
        assert len(async_trips) == 1 and redis_client.hlen(f"{TEST_NAMESPACE}-many:many_probe.msgs") == 18
        assert broker.send_trip(Trip(claims=claims)).claimed == [False, False]
    finally:
        for key in redis_client.scan_iter(match=f"{TEST_NAMESPACE}-many:*"):
            redis_client.delete(key)
        broker.close()


# --- a worker child whose pool's main process was killed (kill -9) ----------------------------

ROOT = Path(__file__).resolve().parents[2]


def _gone(pid: int, *, within: float) -> bool:
    deadline = time.monotonic() + within
    while process_alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _parent_with_child(child_code: str) -> tuple[subprocess.Popen, int]:
    """A parent process that forks a child running ``child_code`` (which prints its pid when
    ready); (parent, child pid)."""
    script = textwrap.dedent("""
        import os, sys, time
        pid = os.fork()
        if pid == 0:
        {child}
        else:
            time.sleep(120)
    """).replace("{child}", textwrap.indent(textwrap.dedent(child_code), "    "))
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=ROOT, text=True)
    return parent, int(parent.stdout.readline())  # type: ignore[union-attr]


def test_a_worker_child_stuck_after_its_parent_was_killed_exits_after_the_grace_period():
    # Given a child that watches its parent and cannot stop gracefully (SIGTERM does nothing, as
    # for a dramatiq worker process blocked in its boot hand-shake with the parent)
    parent, child = _parent_with_child("""
        import signal
        from core.broker import watch_parent
        signal.signal(signal.SIGTERM, lambda *_: None)
        watch_parent(interval=0.05, grace=1.0, graceful=True)
        print(os.getpid(), flush=True)
        while True:
            time.sleep(1)
    """)
    try:
        # When the parent is killed
        parent.kill()
        parent.wait()
        # Then the child is still there during the grace period, and gone after it
        time.sleep(0.5)
        assert process_alive(child)
        assert _gone(child, within=5)
    finally:
        if process_alive(child):
            os.kill(child, signal.SIGKILL)


def test_the_pool_metrics_server_ends_with_its_parent_and_frees_its_port():
    # Given the pool's metrics server (forked by the pool's main process) on a port
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    os.environ["dramatiq_prom_port"], previous = str(port), os.environ.get("dramatiq_prom_port")
    try:
        parent, child = _parent_with_child("""
            from core.broker import exposition_server
            print(os.getpid(), flush=True)
            exposition_server()
        """)
    finally:
        if previous is None:
            os.environ.pop("dramatiq_prom_port")
        else:
            os.environ["dramatiq_prom_port"] = previous
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the metrics server never listened"
                time.sleep(0.05)
        # When the main process is killed
        parent.kill()
        parent.wait()
        # Then the server ends too, and the port is free for the pool started again
        assert _gone(child, within=5)
        with socket.socket() as again:
            again.bind(("0.0.0.0", port))
    finally:
        if process_alive(child):
            os.kill(child, signal.SIGKILL)


def test_a_consumer_whose_wait_outlasts_the_redis_socket_timeout_looks_again(settings, caplog):
    # Given a consumer on a real Redis whose client gives up on a reply after 50 ms, idle long
    # enough to wait on its wake-up list for about a second
    with _probe_broker(settings, "timeout") as (broker, ping):
        broker.client.connection_pool.connection_kwargs["socket_timeout"] = 0.05
        broker.client.connection_pool.disconnect()
        consumer = _NotifiedConsumer(broker, "timeout_probe", 1, 1000)
        consumer.misses = 10
        # When its wait times out at the socket (Redis answers a BLPOP only when it ends)
        started = time.monotonic()
        with caplog.at_level("WARNING", logger="core.broker"):
            assert next(consumer) is None
        # Then the consumer did not fail: it says so and looks again, and finds a message sent since
        assert time.monotonic() - started < 1.0
        assert any("did not answer the consumer's wait" in r.getMessage() for r in caplog.records)
        ping.send()
        found = next(consumer)
        assert found is not None and found.actor_name == "timeout_probe.ping"


def _probe_message() -> bytes:
    return Message(queue_name="probe", actor_name="probe.ping", args=(), kwargs={}, options={}).encode()


def test_an_idle_consumer_looks_at_its_queue_only_when_woken_or_after_its_backstop():
    # Given an idle consumer that looked once and found nothing
    broker = _Recorder()
    consumer = _NotifiedConsumer(broker, "probe", 10, 1000)
    assert next(consumer) is None and broker.fetches == 1
    # When its waits end without a token, Then it does not look again
    for _ in range(20):
        assert next(consumer) is None
    assert broker.fetches == 1
    # When a token wakes it, Then it looks (once: that look found nothing)
    broker.tokens.append((b"probe.notify", b"1"))
    next(consumer)
    next(consumer)
    assert broker.fetches == 2
    # When its backstop has passed since its last look, Then it looks without a token
    consumer.looked_at -= core.broker.LOOK_WITHOUT_TOKEN_SECONDS
    next(consumer)
    assert broker.fetches == 3


def test_a_consumer_whose_look_found_messages_looks_again_until_it_finds_none():
    # Given one token for more messages than a look takes (a round trip of many to one queue)
    broker = _Recorder()
    consumer = _NotifiedConsumer(broker, "probe", 2, 1000)
    broker.found = [[_probe_message(), _probe_message()], [_probe_message()]]
    # When the consumer takes them, acking each
    taken = []
    for _ in range(6):
        message = next(consumer)
        if message is not None:
            taken.append(message)
            consumer.queued_message_ids.discard(message.message_id)
    # Then it looked three times without another token (two looks found some, the third none)
    assert len(taken) == 3 and broker.fetches == 3


def test_a_message_that_reached_its_queue_without_a_token_is_found_at_the_backstop(settings, monkeypatch):
    # Given an idle consumer on a real Redis that looked and found nothing, with a short backstop
    monkeypatch.setattr(core.broker, "LOOK_WITHOUT_TOKEN_SECONDS", 0.6)
    with _probe_broker(settings, "backstop") as (broker, ping):
        consumer = _NotifiedConsumer(broker, "backstop_probe", 1, 100)
        assert next(consumer) is None
        # When a message reaches the queue with no token (dramatiq's own enqueue: as its maintenance
        # gives back a dead worker's messages)
        sent_at = time.monotonic()
        RedisBroker.enqueue(broker, ping.message())
        found = _next_found(consumer, within=5)
        # Then the consumer finds it at its backstop, not at once and not never
        assert found is not None and found.actor_name == "backstop_probe.ping"
        assert 0.3 < time.monotonic() - sent_at < 1.5


def test_messages_a_stopping_consumer_gives_back_wake_another_at_once(settings):
    # Given two consumers of one queue on a real Redis, the second idle after a look that found nothing
    with _probe_broker(settings, "requeue") as (broker, ping):
        stopping = _NotifiedConsumer(broker, "requeue_probe", 1, 100)
        idle = _NotifiedConsumer(broker, "requeue_probe", 1, 100)
        assert next(idle) is None
        ping.send()
        taken = next(stopping)
        assert taken is not None
        # (the second wakes on the send's token, looks, and finds nothing: the first took it)
        assert next(idle) is None and next(idle) is None and not idle.woken
        # When the first gives its prefetched message back (a worker stopping)
        given_back_at = time.monotonic()
        stopping.requeue([taken])
        found = _next_found(idle, within=5)
        # Then the second takes it at once, long before its backstop
        assert found is not None and found.message_id == taken.message_id
        assert time.monotonic() - given_back_at < core.broker.LOOK_WITHOUT_TOKEN_SECONDS / 2
        # And nothing given back (dramatiq passes a generator) wakes nobody
        key = core.broker.notify_key(broker.namespace, "requeue_probe")
        broker.client.delete(key)
        stopping.requeue(message for message in [])
        assert broker.client.llen(key) == 0


def test_each_process_runs_the_queue_maintenance_on_a_clock_never_on_an_ack(settings):
    broker = NotifyingRedisBroker(url=settings.redis_url, namespace=f"{TEST_NAMESPACE}-maintenance")
    try:
        # The first dispatch that may run it does; acks and nacks never do
        assert broker._should_do_maintenance("ack") == 0 and broker._should_do_maintenance("nack") == 0
        assert broker._should_do_maintenance("fetch") == 1
        # Then none until MAINTENANCE_EVERY_SECONDS passed, however many dispatches
        assert sum(broker._should_do_maintenance("fetch") for _ in range(5000)) == 0
        broker._maintained_at -= core.broker.MAINTENANCE_EVERY_SECONDS
        assert broker._should_do_maintenance("enqueue") == 1
    finally:
        broker.close()


def test_a_dead_workers_unacked_message_comes_back_to_the_living(settings, monkeypatch):
    # Given two worker processes' brokers on one namespace (each its own heartbeat), a heartbeat
    # timeout of 1 s and maintenance every 0.5 s
    monkeypatch.setattr(core.broker, "MAINTENANCE_EVERY_SECONDS", 0.5)
    namespace = f"{TEST_NAMESPACE}-dead-worker"
    dead = NotifyingRedisBroker(url=settings.redis_url, namespace=namespace, heartbeat_timeout=1000)
    living = NotifyingRedisBroker(url=settings.redis_url, namespace=namespace, heartbeat_timeout=1000)
    try:
        for broker in (dead, living):
            broker.declare_queue("dead_probe")
        message = Message(queue_name="dead_probe", actor_name="dead_probe.ping", args=(), kwargs={}, options={})
        living.enqueue(message)
        # When the first takes it and dies without acking (no more heartbeats from it)
        taken = next(_NotifiedConsumer(dead, "dead_probe", 1, 100))
        assert taken is not None
        consumer = _NotifiedConsumer(living, "dead_probe", 1, 100)
        died_at = time.monotonic()
        found = _next_found(consumer, within=10)
        # Then the living worker gets it once the heartbeat timed out and its maintenance ran
        assert found is not None and found.message_id == taken.message_id
        assert time.monotonic() - died_at < 1.0 + 0.5 + core.broker.LOOK_WITHOUT_TOKEN_SECONDS + 1.0
    finally:
        dead.close()
        living.close()


#: A worker process of its own (dramatiq's Worker on the service's broker, with its AsyncIO and
#: DatabaseLifecycle middleware) whose one actor reads the database: ``argv`` is the file the
#: actor writes its answer to, the broker's namespace and how long the boot waits for the database.
_BOOTING_WORKER = textwrap.dedent("""
    import asyncio, sys, time
    from pathlib import Path

    import dramatiq
    from tortoise import connections

    import core.broker
    from core.settings import get_settings
    from models import ORM_APP

    out, namespace, core.broker.BOOT_DATABASE_WAIT_SECONDS = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    broker = core.broker.create_broker(get_settings(), namespace=namespace, orm_app=ORM_APP)

    @dramatiq.actor(broker=broker, queue_name="boot_probe", actor_name="boot_probe.read")
    async def read() -> None:
        rows = await connections.get("default").execute_query_dict("SELECT 41 + 1 AS answer")
        # with the module of the loop it ran on
        out.write_text(f"{rows[0]['answer']} {type(asyncio.get_running_loop()).__module__}")

    worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=100)
    worker.start()  # the boot: it opens the database first
    read.send()
    deadline = time.monotonic() + 20
    while not out.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    worker.stop(5000)
    broker.close()
""")


def _through_port(url: str, port: int) -> str:
    """``url`` with its server at ``127.0.0.1:port`` (the user, database and other parameters
    kept; a Unix socket's ``host=`` dropped)."""
    parts = urlsplit(url)
    user = parts.netloc.rpartition("@")[0]
    query = urlencode([(key, value) for key, value in parse_qsl(parts.query) if key != "host"])
    return urlunsplit(parts._replace(netloc=f"{user}@127.0.0.1:{port}" if user else f"127.0.0.1:{port}", query=query))


def _server_of(url: str) -> str | tuple[str, int]:
    """Where ``url``'s server listens: a Unix socket's path (``host=`` a folder, as embedded
    PostgreSQL gives it), or a host and port."""
    parts = urlsplit(url)
    folder = dict(parse_qsl(parts.query)).get("host", "")
    if folder.startswith("/"):
        return f"{folder}/.s.PGSQL.{parts.port or 5432}"
    return parts.hostname or "127.0.0.1", parts.port or 5432


def _booting_worker(settings, tmp_path: Path, *, database_port: int, wait_seconds: float) -> subprocess.Popen:
    """:data:`_BOOTING_WORKER` with its database reached through ``127.0.0.1:database_port``."""
    env = {**os.environ, "DATABASE_URL": _through_port(settings.database_url, database_port),
           "REDIS_URL": settings.redis_url,
           "CUSTODY_ENV": "test", "CUSTODY_DATA_DIR": str(settings.data_dir)}
    return subprocess.Popen([sys.executable, "-c", _BOOTING_WORKER, str(tmp_path / "answer"),
                             f"{TEST_NAMESPACE}-boot-{database_port}", str(wait_seconds)],
                            env=env, cwd=Path(__file__).resolve().parents[2], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


async def _forward(port: int, target: str | tuple[str, int]) -> asyncio.Server:
    """A forwarder from ``127.0.0.1:port`` to ``target`` (:func:`_server_of`): the database,
    reachable from now on."""

    async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def connect(client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter) -> None:
        if isinstance(target, str):
            server_reader, server_writer = await asyncio.open_unix_connection(target)
        else:
            server_reader, server_writer = await asyncio.open_connection(*target)
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

    return await asyncio.start_server(connect, "127.0.0.1", port)


def _forget_namespace(client, database_port: int) -> None:
    """The keys a :func:`_booting_worker` left in Redis."""
    keys = list(client.scan_iter(match=f"{TEST_NAMESPACE}-boot-{database_port}:*", count=1000))
    if keys:
        client.delete(*keys)


async def test_a_worker_that_boots_while_the_database_is_down_waits_for_it_before_taking_messages(
        settings, redis_client, tmp_path):
    # Given a worker booting while its database cannot be reached (nothing listens on its port)
    port = free_port()
    worker = _booting_worker(settings, tmp_path, database_port=port, wait_seconds=60)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(worker.stderr), daemon=True)  # type: ignore[arg-type]
    reader.start()
    try:
        # (its boot tried and said it waits: on a busy machine its imports alone can take seconds)
        deadline = time.monotonic() + 60
        while not any("the database cannot be opened yet" in line for line in lines):
            assert worker.poll() is None and time.monotonic() < deadline, "".join(lines)[-3000:]
            await asyncio.sleep(0.05)
        # When the database comes back (its port now forwards to the server)
        forwarder = await _forward(port, _server_of(settings.database_url))
        try:
            code = await asyncio.to_thread(worker.wait, 30)
        finally:
            forwarder.close()
        await asyncio.to_thread(reader.join, 10)
        stderr = "".join(lines)
    finally:
        if worker.poll() is None:
            worker.kill()
        _forget_namespace(redis_client, port)
    # Then the worker waited for it, and its actor ran with the database, on uvloop's event loop
    assert code == 0, stderr[-3000:]
    assert (tmp_path / "answer").read_text() == "42 uvloop"
    assert "No TortoiseContext" not in stderr


def test_a_worker_whose_database_stays_down_exits_instead_of_running_without_it(settings, redis_client, tmp_path):
    # Given a worker whose database never comes, with a boot that waits 1 s for it
    port = free_port()
    worker = _booting_worker(settings, tmp_path, database_port=port, wait_seconds=1)
    try:
        code = worker.wait(30)
        _, stderr = worker.communicate()
    finally:
        if worker.poll() is None:
            worker.kill()
        _forget_namespace(redis_client, port)
    # Then it exits with dramatiq's status for a failed connection, its actor never run
    assert code == core.broker.EXIT_NO_DATABASE, stderr[-3000:]
    assert "worker: no database after" in stderr
    assert not (tmp_path / "answer").exists()
