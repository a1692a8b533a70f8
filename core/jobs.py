"""The project's own actor decorators.

:func:`actor` declares an async Dramatiq actor named ``"domain.verb"`` on the queue of its job
family (the ``domain`` part unless told otherwise), with retry defaults from settings and the
request id context set. :func:`command_actor` builds on it for outbox commands: the message
carries only a command id; the actor claims the command (locks it and marks it done, one
statement), runs the handler in the same transaction and commits both, so a second delivery of
the same message changes nothing.

Actor declarations are deferred: :func:`declare` binds every collected actor to a broker,
which lets tests and processes choose the broker first.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import traceback
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Iterable

import dramatiq
from dramatiq.middleware import CurrentMessage
from tortoise import connections
from tortoise.models import Model

from core import clock, outbox
from core.broker import message, queue_of
from core.context import current_request_id
from core.db import transaction
from core.outbox import Command
from core.settings import get_settings
from core.unit_of_work import unit_of_work

logger = logging.getLogger(__name__)

_NAME = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")

Handler = Callable[..., Awaitable[Any]]


@dataclass
class _Declaration:
    name: str
    queue: str
    fn: Callable[..., Awaitable[Any]]
    options: dict[str, Any]


_declarations: dict[str, _Declaration] = {}


def actor(name: str, **options: Any) -> Callable[[Handler], Handler]:
    """Declare an async actor ``name`` (``"domain.verb"``) on the family queue.

    The queue is always the name's prefix (``core.broker.queue_of``): messages are built by name
    in processes that never import the actors (``core.broker.message``), so a queue chosen here
    could not be honoured by them. A new family gets a new prefix, hence a queue of its own.

    ``options`` go to :func:`dramatiq.actor` (``max_retries``, ``time_limit``, ...) and override
    the defaults from settings.
    """
    if not _NAME.match(name):
        raise ValueError(f"actor names are 'domain.verb' in snake case, got {name!r}")

    def decorator(fn: Handler) -> Handler:
        if name in _declarations:
            raise ValueError(f"actor {name!r} is declared twice")
        _declarations[name] = _Declaration(name=name, queue=queue_of(name), fn=fn, options=options)
        return fn

    return decorator


def command_actor(name: str, *, lock: outbox.RowLock | None = None, **options: Any) -> Callable[[Handler], Handler]:
    """Declare an outbox command actor; ``handler(command=..., **payload)`` runs exactly once.

    ``lock``: the row the handler locks first, locked by the command's claim (:func:`execute_command`).

    The handler runs inside the transaction that locks the command row and marks it done, so
    its database effects and the "done" mark commit together. A failed attempt is recorded
    on the command (attempts, last_error) and retried by Dramatiq; after the last retry the
    command is marked failed.
    """

    def decorator(handler: Handler) -> Handler:
        async def run_command(command_id: str) -> None:
            await execute_command(command_id, handler, max_retries=options.get("max_retries"), lock=lock)

        run_command.__name__ = handler.__name__
        run_command.__doc__ = handler.__doc__
        actor(name, **options)(run_command)
        return handler

    return decorator


#: The claim of a command (:func:`execute_command`): its row locked and marked done in one
#: statement, the row as it is now and its run's fields as they were (``was_*``); no row when the
#: command is unknown, done or failed. The locking subquery waits for a run of the same command in
#: another transaction and then sees that run's outcome (PostgreSQL rereads a row it waited for),
#: so a second delivery finds it done and claims nothing.
_CLAIM = """
UPDATE outbox_commands c
SET status = 'done', started_at = $2, finished_at = $2, attempts = c.attempts + 1, last_error = NULL
FROM (SELECT id, status, started_at, finished_at, last_error FROM outbox_commands WHERE id = $1 FOR UPDATE) was
WHERE c.id = was.id AND was.status NOT IN ('done', 'failed')
RETURNING c.*, was.status AS was_status, was.started_at AS was_started_at, was.finished_at AS was_finished_at,
          was.last_error AS was_last_error
"""


@functools.cache
def _claim_locking(lock: outbox.RowLock) -> str:
    """:data:`_CLAIM` that also locks ``lock``'s row once the command is claimed (after the
    command's row, as the handler would; nothing when there is nothing to claim), its columns as
    ``row__<column>``. Made on first use: tortoise knows every column once it is set up."""
    meta = lock.model._meta  # noqa: SLF001
    columns = ", ".join(f'r."{column}" AS "row__{column}"' for column in meta.fields_db_projection.values())
    conditions = "".join(f' AND "{meta.fields_db_projection[name]}" = ${number}'
                         for number, (name, _) in enumerate(lock.filters, start=3))
    return (f"WITH claimed AS ({_CLAIM}) SELECT claimed.*, {columns} FROM claimed LEFT JOIN LATERAL ("
            f'SELECT * FROM "{meta.db_table}" WHERE "{meta.db_pk_column}" = '
            f"(claimed.payload->>'{lock.payload_key}')::{lock.key_type}{conditions} FOR UPDATE) r ON true")


async def _claim(command_id: str, lock: outbox.RowLock | None = None
                 ) -> tuple[Command, tuple[Any, ...], Model | None] | None:
    """Lock ``command_id`` and mark it done (see :data:`_CLAIM`): the command, what its run's
    fields were (status, started_at, attempts, finished_at, last_error), and ``lock``'s row,
    locked in the same statement (None: no lock asked, or no such row)."""
    sql = _CLAIM if lock is None else _claim_locking(lock)
    values = [command_id, clock.now(), *(value for _, value in (lock.filters if lock else ()))]
    found = await connections.get("default").execute_query_dict(sql, values)
    if not found:
        return None
    row = found[0]
    was = (row.pop("was_status"), row.pop("was_started_at"), row["attempts"] - 1, row.pop("was_finished_at"),
           row.pop("was_last_error"))
    locked = None
    if lock is not None:
        columns = {name[5:]: row.pop(name) for name in list(row) if name.startswith("row__")}
        if columns[lock.model._meta.db_pk_column] is not None:  # noqa: SLF001
            locked = lock.model._init_from_db(**columns)  # noqa: SLF001  (tortoise's own row -> model)
    return Command._init_from_db(**row), was, locked  # noqa: SLF001  (tortoise's own row -> model)


async def execute_command(command_id: str, handler: Handler, *, max_retries: int | None = None,
                          lock: outbox.RowLock | None = None) -> bool:
    """Run ``handler`` for the command once. Returns False when there was nothing to do.

    The command is claimed first: its row locked and marked done in one statement (:data:`_CLAIM`),
    in the transaction the handler then writes in, so both commit together and nothing is
    written about the command afterwards. An error rolls both back (the failure is then recorded,
    :func:`_record_failure`), and the status is only ever read after the commit.

    ``lock``: the row the handler locks first (core.outbox.RowLock), locked by the claim's
    statement too and handed to the handler (core.outbox.take_locked)."""
    token = current_request_id.set(command_id)
    try:
        try:
            async with unit_of_work():
                claimed = await _claim(command_id, lock)
                if claimed is None:
                    # Delivered again after it ran (at-least-once broker) or unknown: no effect.
                    return False
                command, was, locked = claimed
                handing = outbox.hand_over(locked)
                try:
                    await handler(command=command, **command.payload)
                except Exception as exc:
                    if getattr(exc, "commit_unit_of_work", False):
                        # This error commits what the handler wrote, the claim with it: the command
                        # must not say done.
                        (command.status, command.started_at, command.attempts, command.finished_at,
                         command.last_error) = was
                        await command.save()
                    raise
                finally:
                    outbox.stop_handing_over(handing)
                return True
        except Exception as exc:
            await _record_failure(command_id, exc, max_retries=max_retries)
            raise
    finally:
        current_request_id.reset(token)


async def _record_failure(command_id: str, exc: Exception, *, max_retries: int | None) -> None:
    message = CurrentMessage.get_current_message()
    retries = message.options.get("retries", 0) if message is not None else 0
    limit = max_retries if max_retries is not None else get_settings().actor_max_retries
    final = retries >= limit
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()[:2000]
    async with transaction():
        command = await Command.filter(id=command_id).select_for_update().first()
        if command is None or command.status in ("done", "failed"):
            return
        command.attempts += 1
        command.last_error = detail
        command.status = "failed" if final else "pending"
        if final:
            command.finished_at = clock.now()
        await command.save()
    logger.warning("command %s failed (attempt %d)%s", command_id, retries + 1, " for good" if final else "")


def _discarding_result(fn: Handler) -> Handler:
    """Actors report through the database, not a result backend: drop return values, which
    Dramatiq would otherwise warn about on every message."""

    @functools.wraps(fn)
    async def run(*args: Any, **kwargs: Any) -> None:
        await fn(*args, **kwargs)

    return run


async def send(actor_name: str, calls: Iterable[tuple[tuple[Any, ...], int | None]], *,
               broker: dramatiq.Broker | None = None) -> int:
    """Send one message to ``actor_name`` per ``(args, delay_ms)``; returns how many were sent.

    For jobs that are not outbox commands (their state in PostgreSQL already says they are due,
    and a sweep finds what was lost). A broker failure is logged, not raised, for that reason.
    """
    target = broker or dramatiq.get_broker()
    pending = list(calls)
    if not pending:
        return 0

    def send_all() -> int:
        sent = 0
        for args, delay_ms in pending:
            try:
                target.enqueue(message(actor_name, *args), delay=delay_ms or None)
                sent += 1
            except Exception as exc:  # noqa: BLE001 - the caller's sweep covers a broker outage
                logger.warning("could not enqueue %s%r: %s", actor_name, args, type(exc).__name__)
        return sent

    # The Redis client is blocking; keep the event loop free.
    return await asyncio.to_thread(send_all)


def declare(broker: dramatiq.Broker) -> list[dramatiq.Actor]:
    """Bind every collected actor to ``broker`` (idempotent per broker)."""
    settings = get_settings()
    declared = []
    for decl in _declarations.values():
        if decl.name in broker.actors:
            declared.append(broker.get_actor(decl.name))
            continue
        options = {
            "max_retries": settings.actor_max_retries,
            "min_backoff": settings.actor_min_backoff_ms,
            "max_backoff": settings.actor_max_backoff_ms,
            "time_limit": settings.actor_time_limit_ms,
            **decl.options,
        }
        declared.append(
            dramatiq.actor(_discarding_result(decl.fn), actor_name=decl.name, queue_name=decl.queue,  # type: ignore[call-overload]  # dramatiq's overloads
                           broker=broker, **options)
        )
    return declared
