"""The request or task boundary: one transaction, then the jobs it wrote.

Services never commit. An endpoint or actor wraps its work in :func:`unit_of_work`: the
transaction commits when the block ends without error, and only then are the outbox commands
written inside it enqueued. On error everything rolls back and nothing is enqueued.

A unit of work may also ask for a *nudge* (:func:`nudge_after_commit`): a message sent after
commit with no outbox row, for jobs whose durable trigger is elsewhere (the scheduler runs them
anyway) and that only run sooner for it. Nudges to one actor with the same arguments coalesce
across processes while one is on its way.

A unit of work may also *wake* an actor with items (:func:`wake_after_commit`): after commit,
every item given to one actor travels in one message ``actor(items)`` (at most
:data:`WAKE_BATCH` per message), again best effort with no outbox row: the actor's sweep
finds what a lost message left (e.g. the signers' ``sign_sessions``, several signing sessions
per message).

One kind of error commits instead: an exception whose ``commit_unit_of_work`` attribute is true
(the change approvals' 403 QUORUM_APPROVAL_REQUIRED: the request it registered must outlive the
refusal). The block's writes commit, its commands are enqueued, then the error leaves the block.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, AsyncIterator, Generator

import dramatiq
import dramatiq.broker

from core import outbox
from core.broker import Trip, TripResult, message, run_senders
from core.db import transaction

logger = logging.getLogger(__name__)

#: Nudges asked for by the current unit of work: ``(actor_name, args)`` → its delay in
#: milliseconds (0: at once), in order, once each.
_nudges: ContextVar[dict[tuple[str, tuple[Any, ...]], int] | None] = ContextVar("nudges", default=None)
#: Items to send per actor after commit (:func:`wake_after_commit`), in order.
_wakeups: ContextVar[dict[str, list[Any]] | None] = ContextVar("wakeups", default=None)
#: Most items one wake-up message carries.
WAKE_BATCH = 100
#: How long a sent nudge counts as "on its way" (its run clears it sooner: :func:`clear_nudge`).
NUDGE_TTL_MS = 2000


def nudge_after_commit(actor_name: str, *args: Any, delay_ms: int = 0) -> None:
    """Send ``actor_name(*args)`` once the current unit of work commits: best effort (no outbox
    row), coalesced while one is on its way. Outside a unit of work nothing is sent.

    ``delay_ms``: the nudge runs that much later, and every commit meanwhile joins it (a batch
    job such as the audit chainer then runs at most about once per delay, whatever the rate of
    commits, instead of once per commit)."""
    pending = _nudges.get()
    if pending is not None:
        pending[(actor_name, args)] = max(delay_ms, pending.get((actor_name, args), 0))


def wake_after_commit(actor_name: str, item: Any) -> None:
    """Send ``item`` to ``actor_name`` once the current unit of work commits, in one message
    with the other items for that actor: ``actor(items)``. Best effort (no outbox row): the
    caller's durable state must let a sweep find what a lost message left. Outside a unit of
    work nothing is sent."""
    pending = _wakeups.get()
    if pending is not None:
        pending.setdefault(actor_name, []).append(item)


def _wakeup_sender(wakeups: dict[str, list[Any]]) -> Generator[Trip, TripResult, None]:
    """The wake-ups' messages (a sender of core.broker: one trip), best effort: the actor's sweep
    covers a lost one."""
    messages = [message(actor_name, items[first:first + WAKE_BATCH])
                for actor_name, items in wakeups.items() for first in range(0, len(items), WAKE_BATCH)]
    if not messages:
        return
    result = yield Trip(messages=[(wake_up, None) for wake_up in messages])
    for wake_up, sent in zip(messages, result.enqueued):
        if isinstance(sent, Exception):
            logger.warning("could not wake %s: %s", wake_up.actor_name, type(sent).__name__)


def nudge_key(namespace: str, actor_name: str, args: tuple[Any, ...]) -> str:
    return f"{namespace}:nudge:{actor_name}:" + ":".join(str(arg) for arg in args)


def clear_nudge(broker: dramatiq.Broker, actor_name: str, *args: Any) -> None:
    """Called by a nudged actor as it starts: commits from now on send a new nudge."""
    client = getattr(broker, "client", None)
    if client is not None:
        client.delete(nudge_key(broker.namespace, actor_name, args))  # type: ignore[attr-defined]  # a RedisBroker


def _nudge_sender(namespace: str, nudges: list[tuple[tuple[str, tuple[Any, ...]], int]]) -> Generator[
        Trip, TripResult, None]:
    """Each nudge not already on its way (a sender of core.broker: its key claimed in one trip,
    the messages of those claimed in a second). A failure is only logged: a nudge is only a head
    start, the scheduler covers it."""
    if not nudges:
        return
    result = yield Trip(claims=[(nudge_key(namespace, actor_name, args), NUDGE_TTL_MS + delay_ms)
                                for (actor_name, args), delay_ms in nudges])
    due: list[tuple[tuple[str, tuple[Any, ...]], int]] = []
    for ((actor_name, args), delay_ms), claimed in zip(nudges, result.claimed):
        if isinstance(claimed, Exception):
            logger.warning("could not nudge %s%r: %s", actor_name, args, type(claimed).__name__)
        elif claimed:
            due.append(((actor_name, args), delay_ms))
    if not due:
        return
    result = yield Trip(messages=[(message(actor_name, *args), delay_ms or None) for (actor_name, args), delay_ms in due])
    for ((actor_name, args), _), sent in zip(due, result.enqueued):
        if isinstance(sent, Exception):
            logger.warning("could not nudge %s%r: %s", actor_name, args, type(sent).__name__)


def _commits(exc: BaseException) -> bool:
    return bool(getattr(exc, "commit_unit_of_work", False))


@asynccontextmanager
async def unit_of_work(*, broker: dramatiq.Broker | None = None) -> AsyncIterator[None]:
    """Run the block in one transaction; enqueue its commands after commit.

    Nested use joins the outer unit of work (its commands are enqueued when the outermost
    one commits), so services may open one defensively.
    """
    deferred: BaseException | None = None
    if outbox.is_collecting():
        async with transaction():
            try:
                yield
            except Exception as exc:
                if not _commits(exc):
                    raise
                deferred = exc
        if deferred is not None:
            raise deferred
        return
    commands, token = outbox.begin_collecting()
    nudges: dict[tuple[str, tuple[Any, ...]], int] = {}
    nudges_token = _nudges.set(nudges)
    wakeups: dict[str, list[Any]] = {}
    wakeups_token = _wakeups.set(wakeups)
    try:
        async with transaction():
            try:
                yield
            except Exception as exc:
                if not _commits(exc):
                    raise
                deferred = exc
            await outbox.write_unsaved()
    finally:
        outbox.stop_collecting(token)
        _nudges.reset(nudges_token)
        _wakeups.reset(wakeups_token)
    if commands or wakeups or nudges:
        await _after_commit(broker, commands, wakeups, list(nudges.items()))
    if deferred is not None:
        raise deferred


async def _after_commit(broker: dramatiq.Broker | None, commands: list[outbox.Command], wakeups: dict[str, list[Any]],
                        nudges: list[tuple[tuple[str, tuple[Any, ...]], int]]) -> None:
    """Every message of a committed unit of work, off the event loop (the Redis client is
    blocking), then the outbox's bookkeeping. The units of work of this process that commit while
    one trip is on its way share the next one (:class:`_Messenger`)."""
    # Commands need a broker (dramatiq.get_broker() makes one if none is set); nudges and
    # wake-ups are best effort: with none set up (a tool, a test), the scheduler covers them.
    target = broker or (dramatiq.get_broker() if commands else dramatiq.broker.global_broker)
    if target is None:
        return
    sent, failed = await _messenger.send(_Outgoing(target, commands, wakeups, nudges))
    if commands:
        await outbox.record_sent(sent, failed)


@dataclass
class _Outgoing:
    """What one committed unit of work sends."""

    target: dramatiq.Broker
    commands: list[outbox.Command]
    wakeups: dict[str, list[Any]]
    #: ``((actor_name, args), delay_ms)``: see :func:`nudge_after_commit`.
    nudges: list[tuple[tuple[str, tuple[Any, ...]], int]]


class _Messenger:
    """One hop at a time for the messages of the units of work of this process (a hop: the few
    Redis pipelines of :func:`_send_all`, sent from the event loop).

    A unit of work that commits while a hop is on its way joins the next one, with every other
    unit that committed meanwhile: under load a hop carries several, so the hops, and the
    coalescing Redis calls (a nudge or a batch actor's wake-up asked for by several units of work
    is checked once: every one of them had committed before it is sent), are not paid per
    request. Each unit of work still waits for its own messages to leave."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: list[tuple[_Outgoing, asyncio.Future[tuple[list[outbox.Command], list[outbox.Command]]]]] = []
        self._running = False
        self._task: asyncio.Task[None] | None = None  # held: the loop keeps only a weak reference

    async def send(self, outgoing: _Outgoing) -> tuple[list[outbox.Command], list[outbox.Command]]:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # another event loop (a test's): nothing of the last one carries over
            self._loop, self._waiting, self._running = loop, [], False
        done: asyncio.Future[tuple[list[outbox.Command], list[outbox.Command]]] = loop.create_future()
        self._waiting.append((outgoing, done))
        if not self._running:
            self._running = True
            # In a context of its own: the hop carries several units of work, whose request ids
            # (core.context, read by the log records) are theirs, not the hop's.
            self._task = contextvars.Context().run(loop.create_task, self._run(loop))
        return await done

    async def _run(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            while self._waiting and self._loop is loop:
                hop, self._waiting = self._waiting, []
                try:
                    results = await _send_all([outgoing for outgoing, _ in hop])
                except BaseException as exc:  # noqa: BLE001 - handed to every unit of work of the hop
                    for _, done in hop:
                        if not done.done():
                            done.set_exception(exc)
                    if isinstance(exc, asyncio.CancelledError):
                        raise
                    continue
                for (_, done), result in zip(hop, results):
                    if not done.done():
                        done.set_result(result)
        finally:
            if self._loop is loop:
                self._running = False


_messenger = _Messenger()


async def _send_all(hop: list[_Outgoing]) -> list[tuple[list[outbox.Command], list[outbox.Command]]]:
    """The messages of the units of work of one hop, per broker, in their commit order; returns
    each unit's commands sent and failed. The service's broker sends from the event loop, on a
    Redis client of its own: the wake-ups, the commands and the nudges together, in one round
    trip (a second only when a claimed key asks for a message: core.broker.run_senders)."""
    results: dict[int, tuple[list[outbox.Command], list[outbox.Command]]] = {}
    targets = {id(outgoing.target): outgoing.target for outgoing in hop}
    for key, target in targets.items():
        units = [outgoing for outgoing in hop if id(outgoing.target) == key]
        # Wake-ups first: they are what someone waits for now (a signer for its sessions, a
        # withdrawal for its signature).
        wakeups: dict[str, list[Any]] = {}
        for outgoing in units:
            for actor_name, items in outgoing.wakeups.items():
                wakeups.setdefault(actor_name, []).extend(items)
        commands = [command for outgoing in units for command in outgoing.commands]
        nudges: dict[tuple[str, tuple[Any, ...]], int] = {}
        for outgoing in units:
            for nudge, delay_ms in outgoing.nudges:
                nudges[nudge] = max(delay_ms, nudges.get(nudge, 0))
        namespace = getattr(target, "namespace", "")  # a RedisBroker's
        _, (sent, failed), _ = await run_senders(target, [
            _wakeup_sender(wakeups), outbox.command_sender(commands, namespace=namespace),
            _nudge_sender(namespace, list(nudges.items()))])
        sent_ids, failed_ids = {id(c) for c in sent}, {id(c) for c in failed}
        for outgoing in units:
            results[id(outgoing)] = ([c for c in outgoing.commands if id(c) in sent_ids],
                                     [c for c in outgoing.commands if id(c) in failed_ids])
    return [results[id(outgoing)] for outgoing in hop]
