"""What an SRE looks at: per-queue depth in Redis and the outbox's state in PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import redis

from core import clock
from core.broker import NAMESPACE
from core.outbox import Command
from core.settings import Settings
from custody.wiring import close_database, open_database, worker_queues


def _queue_names(client: redis.Redis, namespace: str) -> set[str]:
    names: set[str] = set()
    for key in client.scan_iter(match=f"{namespace}:*", count=1000):
        name = key.decode().split(":", 1)[1]
        for suffix in (".msgs", ".DQ.msgs", ".XQ.msgs", ".DQ", ".XQ", ".acks"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
                break
        if name and not name.startswith("__"):
            names.add(name.split(".", 1)[0] if name.endswith((".DQ", ".XQ")) else name)
    return names


def redis_queue_depths(client: redis.Redis, namespace: str = NAMESPACE, queues: set[str] | None = None) -> list[dict[str, Any]]:
    """Ready, delayed and dead-lettered message counts of each dramatiq queue."""
    names = (queues or set()) | _queue_names(client, namespace)
    rows = []
    for queue in sorted(names):
        rows.append({
            "queue": queue,
            "ready": client.llen(f"{namespace}:{queue}"),
            "delayed": client.hlen(f"{namespace}:{queue}.DQ.msgs"),
            "dead": client.hlen(f"{namespace}:{queue}.XQ.msgs"),
        })
    return rows


async def queue_report(settings: Settings, *, namespace: str = NAMESPACE) -> dict[str, Any]:
    client = redis.Redis.from_url(settings.redis_url)  # type: ignore[arg-type]
    try:
        queues = redis_queue_depths(client, namespace, set(worker_queues()))
    finally:
        client.close()
    await open_database(settings)
    try:
        by_status: dict[str, int] = {}
        for status in ("pending", "running", "done", "failed"):
            by_status[status] = await Command.filter(status=status).count()
        cutoff = clock.now() - timedelta(seconds=settings.outbox_relay_after_seconds)
        stale = await Command.filter(status="pending", run_at__lte=cutoff).count()
    finally:
        await close_database()
    return {"queues": queues, "outbox": by_status, "stale_commands": stale}
