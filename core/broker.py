"""The Dramatiq broker on Redis, the middleware that gives actors a database, and messages by name.

This module never imports the actors. A process that only enqueues (the API, the scheduler)
builds messages with :func:`message` from an actor's name alone: the queue follows from the
name (``"webhooks.deliver"`` goes to queue ``webhooks``). A worker process additionally binds
the actors to the broker (``custody.wiring.setup_broker``).

In a worker the AsyncIO middleware (:class:`UvloopAsyncIO`: dramatiq's, on uvloop) runs async
actors on an event-loop thread and :class:`DatabaseLifecycle` opens tortoise on that loop when
the worker boots. Tests pass their own running loop instead: actors then run on the loop that
already holds the test database.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import logging
import math
import os
import signal
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Generator, Optional, Sequence, TypeVar
from uuid import uuid4

import dramatiq
import redis
import redis.asyncio
import uvloop
from dramatiq.asyncio import EventLoopThread, get_event_loop_thread, set_event_loop_thread
from dramatiq.broker import MessageProxy
from dramatiq.brokers.redis import RedisBroker, _RedisConsumer
from dramatiq.common import compute_backoff, current_millis, dq_name
from dramatiq.errors import ConnectionClosed
from dramatiq.message import Message
from dramatiq.middleware import AsyncIO, CurrentMessage, Middleware
from dramatiq.middleware.prometheus import Prometheus

from core.db import OrmApp, close_database, init_database
from core.queues import queue_of
from core.settings import Settings, get_settings

logger = logging.getLogger(__name__)
R = TypeVar("R")

def message(actor_name: str, *args: Any) -> dramatiq.Message:
    """A message for the actor ``actor_name`` (no need to have the actor declared here)."""
    return dramatiq.Message(queue_name=queue_of(actor_name), actor_name=actor_name, args=args, kwargs={},
                            options={})


#: Redis key (in the broker's namespace) of a queue's wake-up list: see :class:`NotifyingRedisBroker`.
def notify_key(namespace: str, queue_name: str) -> str:
    return f"{namespace}:{queue_name}.notify"


#: Wake-up tokens kept per queue at most (a queue nobody consumes must not grow a list forever).
NOTIFY_TOKENS_KEPT = 64
#: How long an idle consumer goes without looking at its queue when no token woke it: the backstop
#: for a message that reached the queue without one (dramatiq's maintenance requeues a dead
#: worker's messages with none, and a Redis that restarted may have lost them).
LOOK_WITHOUT_TOKEN_SECONDS = 5.0
#: How often a process runs dramatiq's queue maintenance at most (the requeue of a dead worker's
#: unacked messages, the purge of old dead letters): see NotifyingRedisBroker._should_do_maintenance.
MAINTENANCE_EVERY_SECONDS = 10.0


class _NotifiedConsumer(_RedisConsumer):
    """dramatiq's Redis consumer, which waits on the queue's wake-up list instead of sleeping.

    dramatiq polls an empty queue with an exponential back-off up to the worker's idle timeout
    (a second by default), so a message enqueued on an idle queue waited up to that long. Here
    the wait is a ``BLPOP`` on the queue's wake-up list, bounded by the same back-off: an
    enqueue wakes one idle consumer at once.

    The consumer looks at its queue (dramatiq's fetch script) when a token woke it, when its last
    look found messages (there may be more), or when :data:`LOOK_WITHOUT_TOKEN_SECONDS` passed
    since it last looked: a wait that ended without a token, after a look that found nothing, is
    not followed by a fetch. dramatiq fetched after every wait, so an idle worker
    process (16 queues and their delay queues) ran the fetch script about 40 times a second for
    nothing: 2.8 % of a core and most of its Redis time. The waits stay as short as before, so a
    stopping worker's consumers still end within the idle timeout.

    A delay queue's consumer hands a delayed message (a retry with back-off, a later poll) on to
    its queue between two waits, once it is due: its wait also ends when the earliest delayed
    message it handed out is due, so that message goes on at its time, not up to a back-off later.

    A wait that Redis does not answer within the client's socket timeout ends like an empty one
    (with a warning): the consumer looks again instead of failing.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: When the delayed messages this consumer handed out come due (ms since the epoch), a heap.
        self.due: list[int] = []
        #: Whether the next round looks at the queue: a token woke the consumer (or it never looked).
        self.woken = True
        #: When it last looked at the queue (time.monotonic()).
        self.looked_at = -math.inf

    def _looks(self) -> bool:
        return self.woken or time.monotonic() - self.looked_at >= LOOK_WITHOUT_TOKEN_SECONDS

    def requeue(self, messages: Any) -> None:
        """Give prefetched messages back (a stopping worker), with a token: another process's idle
        consumer takes them at once, not only at its next look without one."""
        messages = list(messages)  # dramatiq passes a generator at times
        super().requeue(messages)
        if messages:
            self.broker.client.rpush(notify_key(self.broker.namespace, self.queue_name), b"1")

    def __next__(self) -> Optional[MessageProxy]:
        try:
            while True:
                if self.message_cache:
                    data = self.message_cache.pop(0)
                    self.misses = 0
                    message = Message.decode(data)
                    self.queued_message_ids.add(message.message_id)
                    eta = message.options.get("eta")
                    if isinstance(eta, (int, float)) and not isinstance(eta, bool):
                        heapq.heappush(self.due, math.ceil(eta))
                    return MessageProxy(message)
                messages = []
                if self.outstanding_message_count < self.prefetch and self._looks():
                    self.message_cache = messages = self.broker.do_fetch(
                        self.queue_name, self.prefetch - self.outstanding_message_count)
                    # Found some: there may be more than it could take (one token stands for a whole
                    # round trip's messages), so it looks again until it finds none.
                    self.woken, self.looked_at = bool(messages), time.monotonic()
                if messages:
                    continue
                self.misses, backoff_ms = compute_backoff(self.misses, max_backoff=self.timeout)
                if self.due:
                    now = current_millis()
                    if self.due[0] <= now:  # due now: the consumer's thread hands it on as this returns
                        while self.due and self.due[0] <= now:
                            heapq.heappop(self.due)
                        return None
                    backoff_ms = min(backoff_ms, self.due[0] - now)
                if self.outstanding_message_count < self.prefetch:
                    try:
                        token = self.broker.client.blpop([notify_key(self.broker.namespace, self.queue_name)],
                                                         timeout=max(backoff_ms, 1) / 1000)
                        self.woken = self.woken or token is not None
                    except redis.TimeoutError:
                        self.woken = True
                        # Redis did not answer the wait within the client's socket timeout (redis-py
                        # 8: 5 s), e.g. an embedded Redis while `custody dev` starts every process on
                        # two cores. The wait is a hint only (redis-py closed that connection; a token
                        # lost with it leaves the next look to find the message): look again, rather
                        # than fail the consumer with a traceback as dramatiq does for this error.
                        logger.warning("queue %s: Redis did not answer the consumer's wait in time; "
                                       "looking again", self.queue_name)
                else:  # full: wait for acks, not for new messages
                    time.sleep(backoff_ms / 1000)
                return None
        except redis.ConnectionError as exc:
            raise ConnectionClosed(exc) from None


class NotifyingRedisBroker(RedisBroker):
    """A Redis broker whose enqueue also pushes a wake-up token for the queue's idle consumers.

    Message storage, acknowledgement, dead letters and heartbeats are dramatiq's own; the idle
    wait differs (:class:`_NotifiedConsumer`), and so does when the queue maintenance runs
    (:meth:`_should_do_maintenance`). The message and its token go in one round trip
    (a pipeline: Redis runs the token's push after the script that stored the message, so a woken
    consumer always finds it); :meth:`enqueue_many` sends several messages in that one round trip,
    and :meth:`enqueue_many_async` does it from an event loop, on a client of that loop (no thread).
    """

    def __init__(self, *, url: str | None = None, **kwargs: Any) -> None:
        super().__init__(url=url, **kwargs)
        self._url = url
        #: When this process last ran dramatiq's queue maintenance (time.monotonic()).
        self._maintained_at = -math.inf
        #: The asyncio client of each event loop that sent (:meth:`async_client`).
        self._async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis.asyncio.Redis] = (
            weakref.WeakKeyDictionary())

    @property
    def consumer_class(self) -> type[_RedisConsumer]:
        return _NotifiedConsumer

    def _should_do_maintenance(self, command: str) -> int:
        """Whether this dispatch also runs dramatiq's queue maintenance: the requeue of the unacked
        messages of workers whose heartbeat is older than ``heartbeat_timeout``, the purge of old
        dead letters.

        dramatiq runs it on a random one in a thousand dispatches, so how soon a dead worker's
        messages come back depended on how often idle consumers fetched for nothing, which they
        no longer do (:class:`_NotifiedConsumer`). Here each process runs it on its first dispatch
        (not an ack or nack) once :data:`MAINTENANCE_EVERY_SECONDS` have passed: a dead worker's
        messages are back within that much after its heartbeat timed out, idle or busy alike."""
        if command in ("ack", "nack"):
            return 0
        now = time.monotonic()
        if now - self._maintained_at < MAINTENANCE_EVERY_SECONDS:
            return 0
        self._maintained_at = now  # two threads at once may both run it: harmless
        return 1

    def async_client(self) -> redis.asyncio.Redis | None:
        """A client of the running event loop on the broker's Redis (same URL, same options as the
        blocking one); None for a broker made from a client instead of a URL."""
        if self._url is None:
            return None
        loop = asyncio.get_running_loop()
        client = self._async_clients.get(loop)
        if client is None:
            client = self._async_clients[loop] = redis.asyncio.Redis.from_url(self._url)
        return client

    async def close_async_client(self) -> None:
        """Close the running event loop's client (:meth:`async_client`), when it made one: what the
        loop's process does as it stops (the API's ``after_server_stop``, a worker's last hook), so
        that its connections end cleanly. A later send on the loop makes a new client."""
        client = self._async_clients.pop(asyncio.get_running_loop(), None)
        if client is not None:
            await client.aclose()

    def enqueue(self, message: Message, *, delay: Optional[int] = None) -> Message:
        (result,) = self.enqueue_many([(message, delay)])
        if isinstance(result, BaseException):
            raise result
        return result

    def enqueue_many(self, items: Sequence[tuple[Message, Optional[int]]]) -> list[Message | Exception]:
        """Each ``(message, delay)`` enqueued as dramatiq's ``RedisBroker.enqueue`` does it (a
        message id of its own in Redis, a delayed message on the delay queue with its eta, the
        middleware's before and after hooks, dramatiq's dispatch script), all in one round trip,
        then one wake-up token per queue. Returns, per item, the message enqueued or the error
        that stopped it (a before-enqueue hook's, a script's, the connection's)."""
        return self.send_trip(Trip(messages=list(items))).enqueued

    def send_trip(self, trip: Trip) -> TripResult:
        """The trip's claims and messages in one round trip (:class:`Trip`; a Redis that lost
        dramatiq's script costs two more: its loading, the messages again)."""
        steps = self._trip_steps(trip)
        request = next(steps)
        while True:
            try:
                request = steps.send(_execute(self.client, request))
            except StopIteration as done:
                return done.value

    async def send_trip_async(self, trip: Trip) -> TripResult:
        """:meth:`send_trip` from the running event loop, on its own client (:meth:`async_client`)."""
        client = self.async_client()
        if client is None:
            return await asyncio.to_thread(self.send_trip, trip)
        steps = self._trip_steps(trip)
        request = next(steps)
        while True:
            try:
                request = steps.send(await _execute_async(client, request))
            except StopIteration as done:
                return done.value

    async def enqueue_many_async(self, items: Sequence[tuple[Message, Optional[int]]]) -> list[Message | Exception]:
        """:meth:`enqueue_many` from the running event loop, on its own client (:meth:`async_client`)."""
        return (await self.send_trip_async(Trip(messages=list(items)))).enqueued

    def _trip_steps(self, trip: Trip) -> Generator[Callable[[Any], None], list[Any] | Exception, TripResult]:
        """:meth:`send_trip` without its input and output: yields what to put in a pipeline,
        receives the pipeline's replies (or the error that stopped it), returns the outcomes."""
        results: list[Message | Exception | None] = [None] * len(trip.messages)
        pending: list[tuple[int, Message, Optional[int]]] = []
        for index, (message, delay) in enumerate(trip.messages):
            try:
                pending.append((index, *self._prepared(message, delay)))
            except Exception as exc:  # noqa: BLE001 - that item's outcome
                results[index] = exc
        claims = trip.claims
        claimed: list[bool | Exception] = []
        for attempt in range(2):
            if not pending and not claims:
                break
            replies = yield functools.partial(self._fill, claims, pending)
            if claims:
                claimed = _claimed(claims, replies if isinstance(replies, Exception) else replies[:len(claims)])
                replies = replies if isinstance(replies, Exception) else replies[len(claims):]
                claims = []
            retry = []
            for position, (index, message, delay) in enumerate(pending):
                reply = replies if isinstance(replies, Exception) else replies[position]
                if isinstance(reply, redis.exceptions.NoScriptError) and attempt == 0:
                    retry.append((index, message, delay))  # a Redis that lost its scripts: load, send again
                elif isinstance(reply, Exception):
                    results[index] = reply
                else:
                    self.emit_after("enqueue", message, delay)
                    results[index] = message
            if retry:
                script = self.scripts["dispatch"]
                loaded = yield lambda pipe: pipe.script_load(script.script)
                if isinstance(loaded, Exception) or isinstance(loaded[0], Exception):
                    for index, _, _ in retry:
                        results[index] = loaded if isinstance(loaded, Exception) else loaded[0]
                    retry = []
                else:
                    script.sha = loaded[0].decode() if isinstance(loaded[0], bytes) else loaded[0]
            pending = retry
        return TripResult(claimed=claimed, enqueued=[result if result is not None else RuntimeError("not enqueued")
                                                     for result in results])

    def _prepared(self, message: Message, delay: Optional[int]) -> tuple[Message, Optional[int]]:
        """What ``RedisBroker.enqueue`` makes of a message before its dispatch, its before hook run."""
        message = message.copy(options={"redis_message_id": str(uuid4())})
        if delay is not None:
            message = message.copy(queue_name=dq_name(message.queue_name),
                                   options={"eta": current_millis() + delay})
        self.emit_before("enqueue", message, delay)
        return message, delay

    def _fill(self, claims: Sequence[tuple[str, int]], prepared: list[tuple[int, Message, Optional[int]]],
              pipe: Any) -> None:
        """The claims, then the dispatch script of each message (as ``RedisBroker.do_enqueue`` calls
        it), then a wake-up token per queue: the pipeline's replies are the claims', the scripts', in order."""
        _claims(claims, pipe)
        sha = self.scripts["dispatch"].sha
        queues: dict[str, None] = {}
        for _, message, _ in prepared:
            pipe.evalsha(sha, 1, self.namespace, "enqueue", current_millis(), message.queue_name, self.broker_id,
                         self.heartbeat_timeout, self.dead_message_ttl, self._should_do_maintenance("enqueue"),
                         self._max_unpack_size(), message.options["redis_message_id"], message.encode())
            queues[message.queue_name] = None
        for queue_name in queues:
            key = notify_key(self.namespace, queue_name)
            pipe.rpush(key, b"1")
            pipe.ltrim(key, -NOTIFY_TOKENS_KEPT, -1)


@dataclass
class Trip:
    """What one round trip to the broker's Redis carries: ``claims``, ``SET key 1 NX PX ttl_ms``
    of each ``(key, ttl_ms)`` (whether the key was free, now taken: "a message is on its way"),
    then ``messages``, each ``(message, delay)`` enqueued (:meth:`NotifyingRedisBroker.enqueue_many`)."""

    claims: list[tuple[str, int]] = field(default_factory=list)
    messages: list[tuple[Message, Optional[int]]] = field(default_factory=list)


@dataclass
class TripResult:
    """A :class:`Trip`'s outcome, item by item: each claim's (taken, or not, or the error), each
    message's (the message enqueued, or the error that stopped it)."""

    claimed: list[bool | Exception]
    enqueued: list[Message | Exception]


#: A sender that needs a round trip or two: yields a :class:`Trip`, receives its :class:`TripResult`,
#: and so on; returns its outcome (:func:`run_senders`).
Sender = Generator[Trip, TripResult, Any]


async def run_senders(broker: dramatiq.Broker, senders: Sequence[Sender]) -> list[Any]:
    """Run the senders together: the trips they ask for at the same step go to Redis as one
    (claims first, then messages, in the senders' order), so that a few senders cost as many
    round trips as the longest of them. Returns each sender's outcome."""
    outcomes: list[Any] = [None] * len(senders)
    current: dict[int, Trip] = {}
    for index, sender in enumerate(senders):
        try:
            current[index] = next(sender)
        except StopIteration as done:
            outcomes[index] = done.value
    while current:
        merged = Trip()
        spans: dict[int, tuple[int, int, int, int]] = {}
        for index, trip in current.items():
            spans[index] = (len(merged.claims), len(trip.claims), len(merged.messages), len(trip.messages))
            merged.claims += trip.claims
            merged.messages += trip.messages
        result = await send_trip(broker, merged)
        following: dict[int, Trip] = {}
        for index, (claims_at, claims, messages_at, messages) in spans.items():
            try:
                following[index] = senders[index].send(TripResult(
                    claimed=result.claimed[claims_at:claims_at + claims],
                    enqueued=result.enqueued[messages_at:messages_at + messages]))
            except StopIteration as done:
                outcomes[index] = done.value
        current = following
    return outcomes


async def send_trip(broker: dramatiq.Broker, trip: Trip) -> TripResult:
    """A :class:`Trip` from an event loop: a :class:`NotifyingRedisBroker` in one round trip on the
    loop's own client, another broker in a thread (its client blocks), one call per item."""
    if not trip.claims and not trip.messages:
        return TripResult(claimed=[], enqueued=[])
    if isinstance(broker, NotifyingRedisBroker):
        return await broker.send_trip_async(trip)
    return await asyncio.to_thread(_send_trip_blocking, broker, trip)


def _send_trip_blocking(broker: dramatiq.Broker, trip: Trip) -> TripResult:
    client = getattr(broker, "client", None)
    claimed: list[bool | Exception] = [True] * len(trip.claims)  # no Redis (never in the service): free
    if client is not None and trip.claims:
        claimed = _claimed(trip.claims, _execute(client, functools.partial(_claims, trip.claims)))
    enqueued: list[Message | Exception] = []
    for message, delay in trip.messages:
        try:
            enqueued.append(broker.enqueue(message, delay=delay))
        except Exception as exc:  # noqa: BLE001 - that item's outcome
            enqueued.append(exc)
    return TripResult(claimed=claimed, enqueued=enqueued)


def _execute(client: redis.Redis, fill: Callable[[Any], None]) -> list[Any] | Exception:
    """One pipeline (no MULTI) filled by ``fill``: its replies, each an error in place if it failed,
    or the error that stopped it (the connection's)."""
    pipe = client.pipeline(transaction=False)
    fill(pipe)
    try:
        return pipe.execute(raise_on_error=False)
    except Exception as exc:  # noqa: BLE001 - the caller's outcome
        return exc


async def _execute_async(client: redis.asyncio.Redis, fill: Callable[[Any], None]) -> list[Any] | Exception:
    """:func:`_execute` on an asyncio client."""
    pipe = client.pipeline(transaction=False)
    fill(pipe)
    try:
        return await pipe.execute(raise_on_error=False)
    except Exception as exc:  # noqa: BLE001 - the caller's outcome
        return exc


def _claims(claims: Sequence[tuple[str, int]], pipe: Any) -> None:
    for key, ttl_ms in claims:
        pipe.set(key, b"1", nx=True, px=ttl_ms)


def _claimed(claims: Sequence[tuple[str, int]], replies: list[Any] | Exception) -> list[bool | Exception]:
    if isinstance(replies, Exception):
        return [replies] * len(claims)
    return [reply if isinstance(reply, Exception) else bool(reply) for reply in replies]


#: Coroutines a worker process runs on its event loop at shutdown, after its last message.
ShutdownHook = Callable[[], Awaitable[None]]


#: How long a booting worker waits for its database (a restart, a fail-over) before it exits,
#: for its pool or supervisor to start it again.
BOOT_DATABASE_WAIT_SECONDS = 60.0
#: The exit status of a worker that gave up waiting: dramatiq's for a connection failure.
EXIT_NO_DATABASE = 3


class _UvloopEventLoopThread(EventLoopThread):
    """dramatiq's event-loop thread, running a uvloop loop instead of asyncio's own."""

    def __init__(self, logger: logging.Logger, interrupt_check_ival: float = 0.1) -> None:
        super().__init__(logger, interrupt_check_ival)
        self.loop.close()  # the asyncio loop dramatiq made (asyncio.new_event_loop()), never run
        self.loop = uvloop.new_event_loop()


class UvloopAsyncIO(AsyncIO):
    """dramatiq's AsyncIO middleware with its worker's event loop on uvloop, as the web workers'
    (Sanic installs uvloop): the loop of every async actor, its database pool, Redis and HTTP
    clients. dramatiq makes its loop with ``asyncio.new_event_loop()``, the default policy's; the
    process's policy is left alone (what else runs in it, a test's loop among them, keeps its own).

    ``bench/withdrawals.py``, five pairs taking turns: the general workers' CPU per withdrawal
    13.9-16.5 ms on uvloop against 15.5-17.8 ms on asyncio's loop (3-12 % less in every pair),
    the signers' 5.4-6.4 against 6.1-7.0 ms; the finished/s ratio moved within its noise (0.114-
    0.124 against 0.105-0.117: the lanes bind too). The webhook drain and the signer pools of
    their own benchmarks showed no change beyond the noise.
    """

    def before_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        thread = _UvloopEventLoopThread(self.logger)
        thread.start(timeout=1.0)
        set_event_loop_thread(thread)


class DatabaseLifecycle(Middleware):
    """Open tortoise on the worker's event loop before any message is taken; close it after the last.

    The database opens in ``before_worker_boot`` (after :class:`AsyncIO` made the loop, before
    dramatiq starts its worker threads), so a fresh worker never runs an actor without it. It
    closes in ``after_worker_shutdown``, which dramatiq emits only once every worker thread
    finished its message (and before :class:`AsyncIO` stops the loop: "after" hooks run in
    reverse order), so an in-flight message never finds the pool closing under it.

    A database that cannot be opened at boot is tried again, with a growing pause, for
    :data:`BOOT_DATABASE_WAIT_SECONDS`; then the process exits (:data:`EXIT_NO_DATABASE`). It
    must not boot without it: dramatiq logs a boot hook's error and starts the worker threads
    all the same, and a worker that booted while PostgreSQL restarted failed every message it
    took from then on ("No TortoiseContext is currently active"; bench/chaos.py, seed
    370536282: 3,143 webhook events never delivered, 366,889 tracebacks in its log).
    """

    def __init__(self, settings: Settings, app: OrmApp, *, on_shutdown: tuple[ShutdownHook, ...] = ()) -> None:
        self.settings = settings
        self.app = app
        self.on_shutdown = on_shutdown

    def before_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        thread = get_event_loop_thread()
        if thread is None:
            raise RuntimeError("DatabaseLifecycle must come after the AsyncIO middleware")
        deadline, pause = time.monotonic() + BOOT_DATABASE_WAIT_SECONDS, 0.2
        while True:
            try:
                thread.run_coroutine(init_database(self.settings, app=self.app))
                break
            except Exception as exc:  # noqa: BLE001 - any failure to open it: try again, then exit
                try:
                    thread.run_coroutine(close_database())  # whatever half opened, forgotten
                except Exception:  # noqa: BLE001 - nothing was open
                    pass
                if time.monotonic() + pause > deadline:
                    logger.critical("worker: no database after %.0f s (%s: %s); exiting", BOOT_DATABASE_WAIT_SECONDS,
                                    type(exc).__name__, exc)
                    # SystemExit passes dramatiq's hook guard (it catches Exception) and ends the
                    # boot; the loop's thread is not a daemon, so it is stopped first.
                    thread.stop()
                    raise SystemExit(EXIT_NO_DATABASE) from exc
                logger.warning("worker: the database cannot be opened yet (%s: %s); trying again in %.1f s",
                               type(exc).__name__, exc, pause)
                time.sleep(pause)
                pause = min(pause * 2, 2.0)
        logger.info("worker: database ready")

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        thread = get_event_loop_thread()
        if thread is None:
            return
        hooks = [*self.on_shutdown, *([broker.close_async_client] if isinstance(broker, NotifyingRedisBroker) else [])]
        for hook in hooks:
            try:
                thread.run_coroutine(hook())
            except Exception:  # noqa: BLE001 - closing must go on
                logger.warning("worker: shutdown hook %s failed", getattr(hook, "__name__", hook), exc_info=True)
        thread.run_coroutine(close_database())
        logger.info("worker: database closed after the last message")


class ParentWatch(Middleware):
    """A worker child process stops when its parent dies: gracefully if it can, for sure if not.

    ``dramatiq`` forks worker processes from a parent that restarts and stops them. When the
    parent is killed (``kill -9``, OOM), the children would keep consuming, orphaned, with
    their logs going nowhere. Each child watches its parent; when it is gone the child

    1. logs to its own stderr from then on: its log records went through a pipe to the dead
       parent, and once that pipe is full (a sibling still holds its read end open) every
       thread that logs blocks for ever;
    2. sends itself SIGTERM, which dramatiq turns into a graceful stop (in-flight messages
       finish, the rest go back to Redis);
    3. exits after ``grace`` seconds if it is still there: a child killed-parent-first can be
       stuck for ever (in the boot hand-shake with the parent, or on a full log pipe), and a
       stuck child keeps the messages it fetched from ever being requeued, since its consumer
       keeps heartbeating. (The chaos script, bench/chaos.py, found such children alive for
       minutes.)
    """

    def __init__(self, interval: float = 1.0, grace: float = 30.0) -> None:
        self.interval = interval
        self.grace = grace

    def after_process_boot(self, broker: dramatiq.Broker) -> None:
        watch_parent(interval=self.interval, grace=self.grace, graceful=True)


def _log_to_stderr() -> None:
    """Replace the root logger's handlers (the pipe to the dead parent) with one on stderr.

    The list is replaced, not the handlers changed: changing one takes its lock, which a thread
    blocked on the full pipe holds."""
    import sys

    root = logging.getLogger()
    old = root.handlers[0] if root.handlers else None
    handler = logging.StreamHandler(sys.__stderr__)
    if old is not None and old.formatter is not None:
        handler.setFormatter(old.formatter)
    root.handlers = [handler]


def watch_parent(*, interval: float, grace: float, graceful: bool) -> threading.Thread:
    """Start a daemon thread that ends this process once its parent is gone.

    ``graceful``: SIGTERM first and exit only after ``grace`` seconds; otherwise exit at once
    (a process with no work in flight, such as the metrics server)."""
    parent = os.getppid()

    def watch() -> None:
        # pid 1 adopted this process: the parent died before the watch began
        while os.getppid() == parent and parent != 1:
            time.sleep(interval)
        _log_to_stderr()
        if graceful:
            logger.warning("worker: parent process %d is gone; stopping (at most %.0f s)", parent, grace)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(grace)
            logger.error("worker: still running %.0f s after its parent %d died; exiting", grace, parent)
        os._exit(3)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread


def exposition_server() -> int:
    """dramatiq's Prometheus exposition server (a process the pool's main process forks), made
    to end with its parent, to wait for the port, and to say in one line when it cannot listen.

    dramatiq's own (``_run_exposition_server``) outlives a killed main process and keeps the
    port, so the pool started again could not serve its metrics ("Address already in use").
    It listens on ``dramatiq_prom_host:dramatiq_prom_port`` (the settings' ``pool_metrics_*``) and
    serves the samples of the pool's folder (``dramatiq_prom_db``, see custody.pool).
    """
    from http.server import HTTPServer

    from dramatiq.middleware import prometheus

    watch_parent(interval=0.5, grace=0, graceful=False)
    settings = get_settings()
    address = (settings.pool_metrics_host, settings.pool_metrics_port)
    deadline = time.monotonic() + 30
    while True:
        try:
            httpd = HTTPServer(address, prometheus._metrics_handler)  # noqa: SLF001 - dramatiq's handler
            break
        except OSError as exc:
            if time.monotonic() > deadline:
                logger.error("metrics: cannot listen on %s:%d (%s); this pool serves no metrics (give each pool "
                             "its own dramatiq_prom_port)", address[0], address[1], exc.strerror or exc)
                return 1
            time.sleep(0.5)  # the previous pool's server, ending with its parent
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        httpd.shutdown()
    return 0


class PoolPrometheus(Prometheus):
    """dramatiq's Prometheus middleware with :func:`exposition_server` as its forked server."""

    @property
    def forks(self) -> list[Callable[[], int]]:
        return [exposition_server]


class _LoopRunner:
    """Stands in for dramatiq's event-loop thread: runs coroutines on a loop owned elsewhere."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def run_coroutine(self, coro: Awaitable[R]) -> R:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()  # type: ignore[arg-type]  # dramatiq's types


class SharedEventLoop(Middleware):
    """Run async actors on an existing, running loop (tests; the database is already open there)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def before_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        set_event_loop_thread(_LoopRunner(self.loop))  # type: ignore[arg-type]  # dramatiq's types

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        set_event_loop_thread(None)


def create_broker(
    settings: Settings | None = None,
    *,
    url: str | None = None,
    namespace: str | None = None,
    event_loop: asyncio.AbstractEventLoop | None = None,
    orm_app: OrmApp | None = None,
    on_shutdown: tuple[ShutdownHook, ...] = (),
    middleware: tuple[Middleware, ...] = (),
) -> RedisBroker:
    """A Redis broker with the service's middleware (not installed as the global broker).

    ``orm_app`` is the ORM app a worker opens on boot (worker processes only), ``on_shutdown``
    what it closes after its last message besides the database; with ``event_loop`` the actors
    run on that already running loop instead (tests, benchmarks). ``middleware`` is added
    first (metrics, logging context).
    """
    settings = settings or get_settings()
    redis_url = url or settings.redis_url
    if not redis_url:
        raise RuntimeError("REDIS_URL is not set (use `custody dev` for embedded servers)")
    broker = NotifyingRedisBroker(url=redis_url, namespace=namespace or settings.redis_namespace)
    for extra in middleware:
        broker.add_middleware(extra)
    broker.add_middleware(CurrentMessage())
    if event_loop is None:
        broker.add_middleware(UvloopAsyncIO())
        if orm_app is not None:
            broker.add_middleware(DatabaseLifecycle(settings, orm_app, on_shutdown=on_shutdown))
            broker.add_middleware(ParentWatch())
    else:
        broker.add_middleware(SharedEventLoop(event_loop))
    return broker


def ping_redis(broker: dramatiq.Broker | None = None) -> None:
    """Raise unless the broker's Redis answers (readiness checks)."""
    (broker or dramatiq.get_broker()).client.ping()  # type: ignore[attr-defined]  # a RedisBroker


def install_broker(settings: Settings | None = None, **kwargs: Any) -> RedisBroker:
    """Create the broker and install it as dramatiq's global broker (processes that only enqueue)."""
    broker = create_broker(settings, **kwargs)
    dramatiq.set_broker(broker)
    return broker
