"""What an SRE looks at and acts on: the queues in Redis and the outbox in PostgreSQL.

``custody queues`` prints, per queue, the messages ready, delayed (retries and delayed sends,
waiting in Redis or held by a worker until due), in progress (fetched, not acknowledged),
dead-lettered, and the age of the oldest ready message; then the outbox commands by status and
the oldest stale one. ``requeue`` moves dead letters back to their queue and ``purge`` deletes
dead letters (or ready messages), both filtered by actor and age, after a count and a
confirmation.

Dramatiq's Redis layout (namespace ``custody``): queue ``q`` is the list ``custody:q`` of message
ids with their bodies in the hash ``custody:q.msgs`` (a fetched message leaves the list and stays
in the hash until acknowledged); delayed messages use the queue ``q.DQ`` the same way; dead
letters are the sorted set ``custody:q.XQ`` (scored by when they died) with bodies in
``custody:q.XQ.msgs``. Only declared queues are read, never other keys of the namespace (the
per-webhook concurrency slots are sorted sets too).
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

import dramatiq
import redis
from dramatiq.message import Message

from core import clock
from core.broker import NAMESPACE, install_broker
from core.outbox import Command
from core.settings import Settings, get_settings
from custody.embedded import with_embedded_servers
from custody.wiring import close_database, migrate, open_database, worker_queues

#: Outbox statuses in the order they are shown.
OUTBOX_STATUSES = ("pending", "running", "done", "failed")

_REMOVE_READY = """
if redis.call('LREM', KEYS[1], 1, ARGV[1]) > 0 then
    redis.call('HDEL', KEYS[2], ARGV[1])
    return 1
end
return 0
"""


@dataclass(frozen=True)
class QueueDepth:
    queue: str
    ready: int
    delayed: int
    in_progress: int
    dead: int
    #: Seconds since the oldest ready message was enqueued (None when none is ready).
    oldest_ready_age_seconds: float | None


def _age(data: bytes | None, now_ms: float) -> float | None:
    if not data:
        return None
    return max(now_ms - Message.decode(data).message_timestamp, 0) / 1000


def queue_depths(client: redis.Redis, queues: Iterable[str], namespace: str = NAMESPACE) -> list[QueueDepth]:
    """Depths of each queue (one pipelined round trip per queue)."""
    rows = []
    now_ms = time.time() * 1000
    for queue in sorted(set(queues)):
        base = f"{namespace}:{queue}"
        pipe = client.pipeline(transaction=False)
        pipe.llen(base)
        pipe.hlen(f"{base}.msgs")
        pipe.hlen(f"{base}.DQ.msgs")
        pipe.zcard(f"{base}.XQ")
        pipe.lindex(base, 0)
        ready, stored, delayed, dead, oldest_id = pipe.execute()
        oldest = client.hget(f"{base}.msgs", oldest_id) if oldest_id else None
        rows.append(QueueDepth(queue=queue, ready=ready, delayed=delayed, in_progress=max(stored - ready, 0),
                               dead=dead, oldest_ready_age_seconds=_age(oldest, now_ms)))
    return rows


async def outbox_state(settings: Settings) -> dict[str, Any]:
    """Outbox commands by status, and the oldest stale pending one (what the relay will resend)."""
    by_status = {status: await Command.filter(status=status).count() for status in OUTBOX_STATUSES}
    cutoff = clock.now() - timedelta(seconds=settings.outbox_relay_after_seconds)
    stale_query = Command.filter(status="pending", run_at__lte=cutoff)
    stale = await stale_query.count()
    oldest = await stale_query.order_by("run_at").first()
    return {
        "by_status": by_status,
        "stale": stale,
        "oldest_stale": None if oldest is None else {
            "id": str(oldest.id), "actor": oldest.actor_name, "attempts": oldest.attempts,
            "age_seconds": round((clock.now() - oldest.run_at).total_seconds(), 1),
            "last_error": (oldest.last_error or "")[:200] or None,
        },
    }


async def queue_report(settings: Settings, *, namespace: str = NAMESPACE,
                       queues: Iterable[str] | None = None) -> dict[str, Any]:
    """The whole picture, as ``custody queues --json`` prints it."""
    client = redis.Redis.from_url(settings.redis_url)  # type: ignore[arg-type]
    try:
        depths = queue_depths(client, queues or worker_queues(), namespace)
    finally:
        client.close()
    await open_database(settings)
    try:
        outbox = await outbox_state(settings)
    finally:
        await close_database()
    return {"queues": [asdict(row) for row in depths], "outbox": outbox}


def format_report(report: dict[str, Any]) -> str:
    """The report as a table for people."""
    lines = [f"{'queue':16}{'ready':>8}{'delayed':>9}{'in progress':>13}{'dead':>7}{'oldest ready':>14}"]
    for row in report["queues"]:
        age = row["oldest_ready_age_seconds"]
        lines.append(f"{row['queue']:16}{row['ready']:>8}{row['delayed']:>9}{row['in_progress']:>13}{row['dead']:>7}"
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


def select_messages(client: redis.Redis, selection: Selection, namespace: str = NAMESPACE) -> list[tuple[str, bytes]]:
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
    return [(key.decode(), body) for key, body in bodies.items() if _matches(body, selection, now_ms)]


def requeue_dead(broker: dramatiq.Broker, selection: Selection) -> int:
    """Move the selected dead letters back to their queue (fresh retries); returns how many."""
    if selection.kind != "dead":
        raise ValueError("only dead letters are requeued")
    client: redis.Redis = broker.client  # type: ignore[attr-defined]
    base = f"{broker.namespace}:{selection.queue}"  # type: ignore[attr-defined]
    moved = 0
    for message_id, body in select_messages(client, selection, broker.namespace):  # type: ignore[attr-defined]
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


def purge(client: redis.Redis, selection: Selection, namespace: str = NAMESPACE) -> int:
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
        asyncio.run(migrate(settings))  # a fresh development database has no outbox table yet
    try:
        return _queues(args, settings)
    finally:
        if servers is not None:
            servers.stop()


def _queues(args: argparse.Namespace, settings: Settings) -> int:
    action = getattr(args, "action", None)
    if action in ("requeue", "purge"):
        if args.queue not in worker_queues():
            sys.exit(f"custody queues: unknown queue {args.queue!r} (known: {', '.join(worker_queues())})")
        kind = "dead" if action == "requeue" else args.kind
        broker = install_broker(settings)
        selection = _selection(args, kind)
        count = len(select_messages(broker.client, selection))  # type: ignore[attr-defined]
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
                else purge(broker.client, selection))  # type: ignore[attr-defined]
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


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:  # noqa: SLF001
    """Register ``custody queues`` (and its ``requeue`` / ``purge``) on the CLI's subparsers."""
    parser = subparsers.add_parser("queues", help="queue depths and outbox state; requeue or purge messages")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--watch", type=float, default=None, metavar="SECONDS", help="refresh every SECONDS")
    parser.set_defaults(func=cmd_queues, action=None)
    actions = parser.add_subparsers(dest="action")
    for name, text in (("requeue", "move dead letters back to their queue"),
                       ("purge", "delete dead letters (or, with --ready, ready messages)")):
        action = actions.add_parser(name, help=text)
        action.add_argument("queue")
        action.add_argument("--actor", default=None, help="only messages of this actor (domain.verb)")
        action.add_argument("--older-than", type=float, default=None, metavar="SECONDS",
                            help="only messages first enqueued at least SECONDS ago")
        action.add_argument("--yes", action="store_true", help="do not ask for confirmation")
        if name == "purge":
            action.add_argument("--ready", dest="kind", action="store_const", const="ready", default="dead",
                                help="purge ready messages instead of dead letters")
        action.set_defaults(func=cmd_queues, json=False, watch=None)
    return parser
