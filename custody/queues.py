"""What an SRE looks at and acts on: the queues in Redis and the outbox in PostgreSQL.

``custody queues`` prints, per queue, the messages ready, delayed (retries and delayed sends,
waiting in Redis or held by a worker until due), in progress (fetched, not acknowledged),
dead-lettered, and the age of the oldest ready message; then the outbox commands by status and
the oldest stale one. ``requeue`` moves dead letters back to their queue and ``purge`` deletes
dead letters (or ready messages), both filtered by actor and age, after a count and a
confirmation.

The queue names and the Redis layout are :mod:`core.queues`'s. The outbox is read with one
asyncpg connection and plain SQL, and the broker is built only to requeue: the command imports
neither the actors nor the ORM, which take seconds (bench/cli.py times it).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import time
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any, Iterable

import asyncpg
import dramatiq
import redis
from dramatiq.message import Message

from core import clock
from core.database_url import direct_url
from core.queues import QUEUES, queue_depths
from core.settings import DEFAULT_REDIS_NAMESPACE, Settings, get_settings
from custody.embedded import with_embedded_servers

#: Outbox statuses in the order they are shown.
OUTBOX_STATUSES = ("pending", "running", "done", "failed")

_REMOVE_READY = """
if redis.call('LREM', KEYS[1], 1, ARGV[1]) > 0 then
    redis.call('HDEL', KEYS[2], ARGV[1])
    return 1
end
return 0
"""


#: The outbox's table (core.outbox.Command), read here without the ORM.
OUTBOX_TABLE = "outbox_commands"


async def outbox_state(connection: asyncpg.Connection, settings: Settings) -> dict[str, Any]:
    """Outbox commands by status, and the oldest stale pending one (what the relay will resend).

    A database not migrated yet has no outbox table, hence no command: all counts are zero.
    """
    by_status = dict.fromkeys(OUTBOX_STATUSES, 0)
    if not await connection.fetchval("SELECT to_regclass($1) IS NOT NULL", OUTBOX_TABLE):
        return {"by_status": by_status, "stale": 0, "oldest_stale": None}
    for row in await connection.fetch(f"SELECT status, count(*) AS n FROM {OUTBOX_TABLE} GROUP BY status"):
        by_status[row["status"]] = int(row["n"])
    now = clock.now()
    cutoff = now - timedelta(seconds=settings.outbox_relay_after_seconds)
    # The oldest stale command and how many there are, in one query (the count is over every row
    # the WHERE keeps, before the LIMIT).
    oldest = await connection.fetchrow(
        f"SELECT count(*) OVER () AS stale, id, actor_name, attempts, run_at, last_error FROM {OUTBOX_TABLE} "
        "WHERE status = 'pending' AND run_at <= $1 ORDER BY run_at LIMIT 1", cutoff)
    return {
        "by_status": by_status,
        "stale": 0 if oldest is None else int(oldest["stale"]),
        "oldest_stale": None if oldest is None else {
            "id": str(oldest["id"]), "actor": oldest["actor_name"], "attempts": oldest["attempts"],
            "age_seconds": round((now - oldest["run_at"]).total_seconds(), 1),
            "last_error": (oldest["last_error"] or "")[:200] or None,
        },
    }


async def queue_report(settings: Settings, *, namespace: str | None = None,
                       queues: Iterable[str] | None = None) -> dict[str, Any]:
    """The whole picture, as ``custody queues --json`` prints it (``namespace``: the settings')."""
    client = redis.Redis.from_url(settings.redis_url)  # type: ignore[arg-type]  # always set in a process
    try:
        depths = queue_depths(client, queues or QUEUES, namespace or settings.redis_namespace)
    finally:
        client.close()
    connection = await asyncpg.connect(direct_url(settings.database_url or ""))
    try:
        outbox = await outbox_state(connection, settings)
    finally:
        await connection.close()
    return {"queues": [asdict(row) for row in depths], "outbox": outbox}


def format_report(report: dict[str, Any]) -> str:
    """The report as a table for people."""
    width = max([len("queue"), *(len(row["queue"]) for row in report["queues"])]) + 2  # the longest name sets it
    lines = [f"{'queue':{width}}{'ready':>7}{'delayed':>9}{'in progress':>13}{'dead':>7}{'oldest ready':>14}"]
    for row in report["queues"]:
        age = row["oldest_ready_age_seconds"]
        lines.append(f"{row['queue']:{width}}{row['ready']:>7}{row['delayed']:>9}{row['in_progress']:>13}{row['dead']:>7}"
                     f"{'-' if age is None else f'{age:.1f} s':>14}")
    outbox = report["outbox"]
    lines.append("")
    lines.append("outbox: " + ", ".join(f"{status} {count}" for status, count in outbox["by_status"].items())
                 + f"; stale {outbox['stale']}")
    oldest = outbox["oldest_stale"]
    if oldest:
        lines.append(f"  oldest stale: {oldest['actor']} {oldest['id']}, {oldest['age_seconds']} s, "
                     f"{oldest['attempts']} attempt(s)" + (f", last error: {oldest['last_error']}"
                                                          if oldest["last_error"] else ""))
    return "\n".join(lines)


# --- dead letters and ready messages ---------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """Which messages of a queue an operation applies to."""

    queue: str
    #: ``dead`` (dead letters) or ``ready`` (waiting to be fetched).
    kind: str = "dead"
    actor: str | None = None
    #: Only messages older than this many seconds (by when they were first enqueued).
    older_than_seconds: float | None = None


def _matches(data: bytes, selection: Selection, now_ms: float) -> bool:
    message = Message.decode(data)
    if selection.actor is not None and message.actor_name != selection.actor:
        return False
    if selection.older_than_seconds is not None:
        return now_ms - message.message_timestamp >= selection.older_than_seconds * 1000
    return True


def select_messages(client: redis.Redis, selection: Selection, namespace: str = DEFAULT_REDIS_NAMESPACE) -> list[tuple[str, bytes]]:
    """The ``(redis message id, body)`` pairs the selection covers."""
    base = f"{namespace}:{selection.queue}"
    if selection.kind == "dead":
        bodies = client.hgetall(f"{base}.XQ.msgs")
    elif selection.kind == "ready":
        ids = client.lrange(base, 0, -1)
        values = client.hmget(f"{base}.msgs", ids) if ids else []
        bodies = {message_id: body for message_id, body in zip(ids, values) if body is not None}
    else:
        raise ValueError(f"kind must be dead or ready, not {selection.kind!r}")
    now_ms = time.time() * 1000
    return [(key.decode(), body) for key, body in bodies.items() if _matches(body, selection, now_ms)]  # type: ignore[arg-type, misc, union-attr]  # redis replies bytes here


def requeue_dead(broker: dramatiq.Broker, selection: Selection) -> int:
    """Move the selected dead letters back to their queue (fresh retries); returns how many."""
    if selection.kind != "dead":
        raise ValueError("only dead letters are requeued")
    client: redis.Redis = broker.client  # type: ignore[attr-defined]  # a RedisBroker
    base = f"{broker.namespace}:{selection.queue}"  # type: ignore[attr-defined]  # a RedisBroker
    moved = 0
    for message_id, body in select_messages(client, selection, broker.namespace):  # type: ignore[attr-defined]  # a RedisBroker
        # Removed first: a second requeue running at once cannot send it twice.
        if not client.zrem(f"{base}.XQ", message_id):
            continue
        client.hdel(f"{base}.XQ.msgs", message_id)
        message = Message.decode(body)
        options = {key: value for key, value in message.options.items()
                   if key not in ("retries", "traceback", "redis_message_id", "eta", "dead_message_ttl")}
        broker.enqueue(dataclasses.replace(message, queue_name=selection.queue, options=options))
        moved += 1
    return moved


def purge(client: redis.Redis, selection: Selection, namespace: str = DEFAULT_REDIS_NAMESPACE) -> int:
    """Delete the selected dead letters or ready messages; returns how many."""
    base = f"{namespace}:{selection.queue}"
    removed = 0
    remove_ready = client.register_script(_REMOVE_READY)
    for message_id, _ in select_messages(client, selection, namespace):
        if selection.kind == "dead":
            if client.zrem(f"{base}.XQ", message_id):
                client.hdel(f"{base}.XQ.msgs", message_id)
                removed += 1
        elif remove_ready(keys=[base, f"{base}.msgs"], args=[message_id]):
            removed += 1  # a message a worker fetched meanwhile is left to it
    return removed


# --- the command line ----------------------------------------------------------------------------


def _confirm(prompt: str, assume_yes: bool) -> bool:
    if assume_yes:
        return True
    try:
        return input(f"{prompt} Type 'yes' to go on: ").strip().lower() == "yes"
    except EOFError:
        return False


def _selection(args: argparse.Namespace, kind: str) -> Selection:
    return Selection(queue=args.queue, kind=kind, actor=args.actor, older_than_seconds=args.older_than)


def cmd_queues(args: argparse.Namespace) -> int:
    """``custody queues [--json] [--watch N]``, ``custody queues requeue|purge QUEUE ...``."""
    settings, servers = get_settings(), None
    if not (settings.database_url and settings.redis_url):
        # As bootstrap and faucet do: the embedded development servers (custody dev's).
        settings, servers = with_embedded_servers(settings)
    try:
        return _queues(args, settings)
    finally:
        if servers is not None:
            servers.stop()


def _queues(args: argparse.Namespace, settings: Settings) -> int:
    action = getattr(args, "action", None)
    if action in ("requeue", "purge"):
        if args.queue not in QUEUES:
            sys.exit(f"custody queues: unknown queue {args.queue!r} (known: {', '.join(QUEUES)})")
        kind = "dead" if action == "requeue" else args.kind
        from core.broker import install_broker  # only to requeue: the broker's middleware is heavy

        broker = install_broker(settings)
        selection = _selection(args, kind)
        count = len(select_messages(broker.client, selection, broker.namespace))
        what = "dead letter(s)" if kind == "dead" else "ready message(s)"
        filters = "".join([f" of {args.actor}" if args.actor else "",
                           f" older than {args.older_than:g} s" if args.older_than is not None else ""])
        if count == 0:
            print(f"no {what}{filters} in {args.queue}")
            return 0
        verb = "move back to the queue" if action == "requeue" else "delete"
        if not _confirm(f"{count} {what}{filters} in {args.queue} to {verb}.", args.yes):
            print("nothing done")
            return 1
        done = (requeue_dead(broker, selection) if action == "requeue"
                else purge(broker.client, selection, broker.namespace))
        print(f"{'requeued' if action == 'requeue' else 'purged'} {done} {what} in {args.queue}")
        return 0
    while True:
        report = asyncio.run(queue_report(settings))
        text = json.dumps(report, indent=2) if args.json else format_report(report)
        if not args.watch:
            print(text)
            return 0
        print("\033[2J\033[H" + time.strftime("%H:%M:%S ") + f"every {args.watch:g} s (Ctrl-C stops)\n" + text,
              flush=True)
        try:
            time.sleep(args.watch)
        except KeyboardInterrupt:
            return 0
