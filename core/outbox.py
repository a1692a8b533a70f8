"""The transactional outbox.

A service writes a :class:`Command` with :func:`add_command` inside the same
database transaction as the state the command acts on. The unit of work
(:func:`core.unit_of_work.unit_of_work`) enqueues the collected commands only after that
transaction has committed; :func:`relay_stale_commands` (run by the scheduler) re-enqueues any
command that no worker has started within ``outbox_relay_after_seconds`` - because Redis was
down at commit time, or a message was lost - unless its message still waits behind older ones in
its queue (:func:`queued_behind`). :func:`purge_done_commands` (the scheduler's too) deletes the
commands done longer ago than ``outbox_retention_hours``.

A command of a unit of work is written already stamped as enqueued (``enqueued_at`` its
creation, ``enqueue_count`` 1), so the commit needs no statement after it: the relay's bound
counts from ``enqueued_at`` or ``run_at``, and both are the creation for such a command, so a
command whose message never left (a crash between the commit and the enqueue) is relayed after
the same bound as an unstamped one would be. When the enqueue itself fails, :func:`dispatch`
takes the stamp back (best effort: if that fails too, the bound still holds).

This module writes rows and sends messages; it never decides what a command does.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generator, Iterable, TypeVar

import dramatiq
import redis
from tortoise import connections, fields
from tortoise.expressions import F, Q
from tortoise.models import Model

# Imported for its effect: tortoise reads model comments faster from here on (before OutboxCommand).
from core import clock, model_comments  # noqa: F401
from core.broker import Trip, TripResult, message, run_senders
from core.queues import QUEUES, queue_depths
from core.rows import build
from core.settings import get_settings

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=Model)


class Command(Model):
    """One job, written in the same transaction as the state it acts on."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    #: The dramatiq actor ("domain.verb") that carries the command out.
    actor_name = fields.CharField(max_length=100, db_index=True)
    #: Keyword arguments of the actor's handler besides ``command_id``; JSON only.
    payload: fields.JSONField[dict[str, Any]] = fields.JSONField(default=dict)
    workspace_id = fields.UUIDField(null=True)
    #: pending -> running -> done | failed.
    status = fields.CharField(max_length=10, default="pending", db_index=True)
    #: Earliest moment the command may run (a delayed command); the relay respects it.
    run_at = fields.DatetimeField(default=clock.now)
    enqueued_at = fields.DatetimeField(null=True)
    enqueue_count = fields.IntField(default=0)
    attempts = fields.IntField(default=0)
    started_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)
    last_error = fields.TextField(null=True)
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "outbox_commands"


#: Commands written by the current unit of work, waiting for its commit.
_pending_commands: ContextVar[list[Command] | None] = ContextVar("pending_commands", default=None)
#: How long a coalesced wake-up counts as "on its way" (its run clears it sooner). A lost one
#: costs at most this long: the next command sends a fresh one (or the relay, with none).
WAKE_TTL_MS = 2000


def wake_key(namespace: str, actor_name: str) -> str:
    """Redis key that says "a message for ``actor_name``'s pending commands is on its way"."""
    return f"{namespace}:wake:{actor_name}"


def clear_wake(broker: dramatiq.Broker, actor_name: str) -> None:
    """Called by a batch actor as it starts: commands committed from now on send a new message."""
    broker.client.delete(wake_key(broker.namespace, actor_name))  # type: ignore[attr-defined]  # a RedisBroker


async def add_command(
    *,
    actor_name: str,
    payload: dict[str, Any] | None = None,
    workspace_id: uuid.UUID | None = None,
    run_at: datetime | None = None,
    coalesce: bool = False,
) -> Command:
    """Write a command in the current transaction; it is enqueued once that transaction commits.

    Call it only inside a unit of work: outside one, nothing would enqueue the command until
    the relay finds it, so this raises instead of delaying the job silently.

    ``coalesce`` is for actors that run their pending commands in batches (``webhooks.fan_out``):
    after commit, a message is sent only when none is already on its way for that actor
    (:func:`dispatch`), so a burst of commands costs one message instead of one each.
    """
    command = new_command(actor_name=actor_name, payload=payload, workspace_id=workspace_id, run_at=run_at,
                          coalesce=coalesce)
    await command.save()
    return command


def new_command(
    *,
    actor_name: str,
    payload: dict[str, Any] | None = None,
    workspace_id: uuid.UUID | None = None,
    run_at: datetime | None = None,
    coalesce: bool = False,
) -> Command:
    """:func:`add_command` without its INSERT: the caller writes the row with the change it
    follows (core.rows.write_rows, one statement); whatever is still unwritten when the unit of
    work ends is written just before its commit (:func:`write_unsaved`)."""
    pending = _pending_commands.get()
    if pending is None:
        raise RuntimeError("add_command() must run inside core.unit_of_work.unit_of_work()")
    now = clock.now()
    command = build(Command, actor_name=actor_name, payload=payload or {}, workspace_id=workspace_id, run_at=run_at or now)
    # Not columns: only the dispatch after this unit of work's commit reads them.
    command.coalesce = coalesce
    # Stamped as enqueued with its row (the module docstring), except a coalesced command: its
    # batch run may already hold its row when the dispatch runs (SKIP LOCKED would pass it over).
    command.prestamped = not coalesce
    if not coalesce:
        command.enqueued_at, command.enqueue_count = now, 1
    pending.append(command)
    return command


def unsaved_commands() -> list[Command]:
    """Commands of the current unit of work not written yet (:func:`new_command`)."""
    return [c for c in _pending_commands.get() or [] if not c._saved_in_db]  # noqa: SLF001


@dataclass(frozen=True)
class RowLock:
    """A row that a command's claim (core.jobs.execute_command) locks ``FOR UPDATE`` in its own
    statement, right after the command's row: the row of ``model`` whose primary key is the
    payload's ``payload_key`` (of SQL type ``key_type``) and whose columns equal ``filters``. The
    handler's first lock of that row takes it with :func:`take_locked` instead of a statement."""

    model: type[Model]
    payload_key: str
    key_type: str = "uuid"
    filters: tuple[tuple[str, str], ...] = ()


#: The row the running command's claim locked (:class:`RowLock`), until the handler takes it.
_locked_with_claim: ContextVar[Model | None] = ContextVar("locked_with_claim", default=None)


def hand_over(row: Model | None) -> Token[Model | None]:
    """core.jobs.execute_command: ``row`` (locked by the claim, in this transaction) is the
    handler's to take (:func:`take_locked`)."""
    return _locked_with_claim.set(row)


def stop_handing_over(token: Token[Model | None]) -> None:
    _locked_with_claim.reset(token)


def take_locked(model: type[M], key: Any) -> M | None:
    """The row of ``model`` with primary key ``key`` when the running command's claim locked it
    in this transaction and nobody took it yet (it is given once: a second lock reads it again);
    None otherwise (the caller locks it itself)."""
    row = _locked_with_claim.get()
    if row is None or type(row) is not model or str(row.pk) != str(key):
        return None
    _locked_with_claim.set(None)
    return row


def commands_to_write() -> list[Command]:
    """The command rows a change writes with its own (core.rows.write_rows, one statement): the
    unit of work's commands not written yet. (The command being run needs no row written: its
    claim marked it done, core.jobs.execute_command.)"""
    return unsaved_commands()


async def write_unsaved() -> None:
    """Write the commands :func:`new_command` left unwritten (the unit of work, before commit)."""
    unsaved = unsaved_commands()
    if unsaved:
        await Command.bulk_create(unsaved)
        for command in unsaved:
            command._saved_in_db = True  # noqa: SLF001


def begin_collecting() -> tuple[list[Command], Token[list[Command] | None]]:
    """Start collecting commands for a unit of work; returns the list and a reset token."""
    commands: list[Command] = []
    return commands, _pending_commands.set(commands)


def stop_collecting(token: Token[list[Command] | None]) -> None:
    _pending_commands.reset(token)


def is_collecting() -> bool:
    return _pending_commands.get() is not None


def keep_back(command: Command) -> Command:
    """Leave ``command`` out of the enqueue after its unit of work commits: the caller runs it in
    this process right after that commit (``core.jobs.execute_command``, which marks it done)
    and sends it with :func:`send_kept_back` only when that run did not end it. A process that
    dies in between leaves it pending and never sent, which is what the relay looks for
    (:func:`relay_stale_commands`: its bound counts from the creation, stamped or not), as after
    a broker outage at commit. Saves the message, its delivery (a transaction finding the
    command done) and the race of that delivery with the run here.

    A command not written yet is written unstamped; one already written with its stamp (the
    module docstring) keeps it: the relay's bound is the same either way."""
    command.kept_back = True
    if not command._saved_in_db and getattr(command, "prestamped", False):  # noqa: SLF001
        command.prestamped = False
        command.enqueued_at, command.enqueue_count = None, 0
    return command


async def send_kept_back(command: Command, *, broker: dramatiq.Broker | None = None) -> int:
    """Enqueue a command :func:`keep_back` held (its run here failed): its message and its
    retries take it from there."""
    command.kept_back = False
    return await dispatch([command], broker=broker)


def _message_for(command: Command) -> tuple[dramatiq.Message, int | None]:
    delay_ms = int((command.run_at - clock.now()).total_seconds() * 1000)
    return message(command.actor_name, str(command.id)), (delay_ms if delay_ms > 0 else None)


async def send_commands(commands: Iterable[Command], broker: dramatiq.Broker) -> tuple[list[Command], list[Command]]:
    """Send each command's message. Returns the commands sent and those whose send failed (logged;
    the relay covers them). A coalesced command sends a message only when none is on its way for
    its actor (:func:`add_command`). See :func:`command_sender`."""
    (outcome,) = await run_senders(broker, [command_sender(commands, namespace=getattr(broker, "namespace", ""))])
    return outcome


def command_sender(commands: Iterable[Command], *, namespace: str) -> Generator[
        Trip, TripResult, tuple[list[Command], list[Command]]]:
    """:func:`send_commands` as a sender of core.broker (:func:`core.broker.run_senders`, which
    joins its trips to those of other senders): one round trip with the coalesced actors' wake-up
    keys claimed and every other message, a second only for a coalesced actor whose key was free
    (no message on its way). ``namespace``: the broker's."""
    sent: list[Command] = []
    failed: list[Command] = []
    direct: list[tuple[Command, dramatiq.Message, int | None]] = []
    coalesced: dict[str, list[tuple[Command, dramatiq.Message]]] = {}
    for command in commands:
        if getattr(command, "kept_back", False):
            continue  # its holder runs it (keep_back)
        message, delay = _message_for(command)
        if getattr(command, "coalesce", False) and delay is None:
            coalesced.setdefault(command.actor_name, []).append((command, message))
        else:
            direct.append((command, message, delay))
    if not direct and not coalesced:
        return sent, failed
    result = yield Trip(claims=[(wake_key(namespace, actor_name), WAKE_TTL_MS) for actor_name in coalesced],
                        messages=[(message, delay) for _, message, delay in direct])
    _record_results(direct, result.enqueued, sent, failed)
    # One wake-up per actor and per burst; the batch run takes these commands too. Once the
    # actor's key is claimed or found taken, its other commands here are covered either way: they
    # had all committed before the check, so the run that the message on its way starts (it
    # clears the key as it starts) reads them, whoever sent that message.
    woken: list[tuple[Command, dramatiq.Message, int | None]] = []
    for (actor_name, waiting), claimed in zip(coalesced.items(), result.claimed):
        if isinstance(claimed, Exception):
            logger.warning("outbox: could not wake %s: %s; the relay will retry", actor_name, type(claimed).__name__)
            failed.extend(command for command, _ in waiting)
        elif claimed:
            first, message = waiting[0]
            woken.append((first, message, None))
    if woken:
        result = yield Trip(messages=[(message, None) for _, message, _ in woken])
        _record_results(woken, result.enqueued, sent, failed)
    return sent, failed


def _record_results(outgoing: list[tuple[Command, dramatiq.Message, int | None]],
                    results: list[dramatiq.Message | Exception], sent: list[Command], failed: list[Command]) -> None:
    for (command, _, _), result in zip(outgoing, results):
        if isinstance(result, Exception):
            # any broker failure leaves the job to the relay
            logger.warning("outbox: could not enqueue command %s (%s): %s; the relay will retry", command.id,
                           command.actor_name, type(result).__name__)
            failed.append(command)
        else:
            sent.append(command)


async def record_sent(sent: Iterable[Command], failed: Iterable[Command]) -> None:
    """The bookkeeping of :func:`send_commands` (after the commit): stamp the sent commands that
    were not stamped with their row (the relay's), take the stamp back from the unsent ones that
    were. Coalesced commands are never stamped (see :func:`new_command`)."""
    stamp = [c.id for c in sent if not getattr(c, "coalesce", False) and not getattr(c, "prestamped", False)]
    unstamp = [c.id for c in failed if getattr(c, "prestamped", False)]
    try:
        if stamp:
            await _record_enqueued(stamp)
        if unstamp:
            await _record_not_enqueued(unstamp)
    except Exception as exc:  # noqa: BLE001 - the transaction committed: its caller must hear success
        # PostgreSQL restarting between the commit and this bookkeeping. Raising here made a
        # committed unit of work look failed, and a client retrying without an idempotency key
        # created its withdrawal twice (bench/chaos.py). The relay may send these commands again
        # after its bound (a stamp taken back or not, the bound counts from the creation for an
        # unsent command): harmless, actors are idempotent.
        logger.warning("outbox: could not record whether %d command(s) were enqueued: %s; the relay may send "
                       "them again", len(stamp) + len(unstamp), type(exc).__name__)


async def dispatch(commands: Iterable[Command], *, broker: dramatiq.Broker | None = None) -> int:
    """Enqueue ``commands`` (after their transaction committed). Returns how many were sent.

    A broker failure is logged and swallowed: the command row is safe in PostgreSQL and the
    relay will enqueue it later. ``broker`` defaults to the process-wide broker.
    """
    target = broker or dramatiq.get_broker()
    sent, failed = await send_commands(list(commands), target)
    await record_sent(sent, failed)
    return len(sent)


async def _record_enqueued(command_ids: list[uuid.UUID]) -> None:
    """Stamp the commands as enqueued now (the relay's bound counts from there)."""
    await Command.filter(id__in=command_ids).update(enqueued_at=clock.now(), enqueue_count=F("enqueue_count") + 1)


async def _record_not_enqueued(command_ids: list[uuid.UUID]) -> None:
    """Take back the stamp a command was written with: its enqueue failed (the relay's bound
    then counts from ``run_at``, its creation)."""
    await Command.filter(id__in=command_ids, enqueue_count__gt=0).update(
        enqueued_at=None, enqueue_count=F("enqueue_count") - 1)


#: How much later than its command's stamp a message may have been made (the stamp is written
#: before the commit, the message after it) and still count as made with it (:func:`queued_behind`).
STAMP_SLACK = timedelta(seconds=1)


async def queued_behind(broker: dramatiq.Broker) -> dict[str, datetime]:
    """For each queue with ready messages, the moment (on :mod:`core.clock`) its oldest ready
    message was made: a command sent at or after it, if its message was not lost, is still in
    that queue behind it (a queue is first in, first out). Nothing for a broker without Redis,
    or when Redis does not answer."""
    client, namespace = getattr(broker, "client", None), getattr(broker, "namespace", None)
    if client is None or namespace is None:
        return {}
    try:
        depths = await asyncio.to_thread(queue_depths, client, QUEUES, namespace)
    except redis.RedisError:
        return {}  # Redis is down: nothing is known queued, and the enqueue fails quietly (dispatch)
    now = clock.now()
    # Ages, not timestamps: a message's is the wall clock's, a stamp the injectable clock's.
    return {depth.queue: now - timedelta(seconds=depth.oldest_ready_age_seconds) - STAMP_SLACK
            for depth in depths if depth.oldest_ready_age_seconds is not None}


#: Batches of ``OUTBOX_RELAY_BATCH`` (``limit``) commands one look of the relay sends at most.
#: After an outage that lost the queues it has every stale command to send again: at one batch
#: per look, 50,000 of them took 100 looks (17 minutes). A command still queued is never among them.
RELAY_BATCHES_PER_LOOK = 10


async def relay_stale_commands(*, broker: dramatiq.Broker | None = None, limit: int | None = None) -> int:
    """Re-enqueue pending commands that were due but not started within the relay bound, in
    batches of ``limit`` (``OUTBOX_RELAY_BATCH``), up to :data:`RELAY_BATCHES_PER_LOOK` of them.

    Due means ``run_at`` has passed; stale means neither the original enqueue nor a previous
    relay led a worker to start it within ``outbox_relay_after_seconds``. Actors are
    idempotent, so a command that was merely slow to start is harmless to send twice.

    A command whose message is still waiting behind older messages of its queue is not sent
    again (:func:`queued_behind`): it was only slow because its queue is long, and a second
    message would only join the same queue further back. Without that, a backlog that workers
    drain in more than the bound was sent again, 500 commands every 10 s, each a delivery that
    finds its command done. Such a command is left out of the query, so it never keeps the
    relay's batch from reaching the commands of other queues. Its message, if it was lost after
    all, is sent again once the queue has moved past the moment it was sent.
    """
    settings = get_settings()
    cutoff = clock.now() - timedelta(seconds=settings.outbox_relay_after_seconds)
    target = broker or dramatiq.get_broker()
    query = Command.filter(status="pending", run_at__lte=cutoff).filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lte=cutoff))
    if not await query.exists():
        return 0  # the usual look: nothing stale, so nothing to ask Redis about either
    behind = await queued_behind(target)
    for queue, since in sorted(behind.items()):
        # One negated conjunction (tortoise's exclude() negates each condition apart); a command
        # never sent has no stamp, and NOT over a NULL comparison would leave it out too.
        query = query.filter(~Q(actor_name__startswith=f"{queue}.", enqueued_at__isnull=False, enqueued_at__gte=since))
    batch, sent, seen = limit or settings.outbox_relay_batch, 0, set[uuid.UUID]()
    for _ in range(RELAY_BATCHES_PER_LOOK):
        stale = await query.order_by("run_at").limit(batch)
        if not stale or not seen.isdisjoint(command.id for command in stale):
            break  # nothing left, or a batch sent but not stamped (PostgreSQL gone): the next look
        seen.update(command.id for command in stale)
        logger.info("outbox relay: re-enqueueing %d stale command(s)", len(stale))
        done = await dispatch(stale, broker=target)  # stamps them: this look's query passes them over
        sent += done
        if len(stale) < batch or done < len(stale):
            break  # the last of them, or Redis refused some: the next look tries again
    return sent


#: The scheduler's hourly job that runs :func:`purge_done_commands`.
PURGE = "outbox.purge"
#: Rows one purge statement deletes at most: each statement (its row locks, its WAL) stays short.
PURGE_BATCH = 5000
#: Done commands finished before ``$1``, at most ``$2`` of them; rows a claim holds are skipped
#: (a claim locks a done row only to find it done, and claims nothing then).
_PURGE_DONE = """
DELETE FROM outbox_commands WHERE id IN (
    SELECT id FROM outbox_commands WHERE status = 'done' AND finished_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
"""


async def purge_done_commands(*, batch: int = PURGE_BATCH) -> int:
    """Delete the commands done more than ``OUTBOX_RETENTION_HOURS`` ago; returns how many.

    A done command is only history: the state it acted on committed with its "done" mark, and a
    late delivery of its message finds no row to claim, which is what a done row also gives
    (core.jobs.execute_command). Pending commands are the outbox's promise and failed ones wait
    for an operator (``custody queues``, the ``outbox_failed`` gauge), so neither is touched.
    Each batch is its own statement, outside any transaction, so none holds locks for long.
    """
    cutoff = clock.now() - timedelta(hours=get_settings().outbox_retention_hours)
    connection = connections.get("default")
    deleted = 0
    while True:
        count, _ = await connection.execute_query(_PURGE_DONE, [cutoff, batch])
        deleted += count
        if count < batch:
            break
    if deleted:
        logger.info("outbox: deleted %d command(s) done before %s", deleted, cutoff.isoformat())
    return deleted
