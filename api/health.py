"""Operations endpoints: liveness (/health), readiness (/ready) and Prometheus metrics (/metrics).

None takes a token: load balancers and Prometheus call them. ``/ready`` says only which check
failed, never an address or an error text; ``/metrics`` holds counts, not data, and should
still be reachable only from the monitoring network (see the README).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Awaitable, Callable

import dramatiq
from dramatiq.brokers.redis import RedisBroker
from sanic import Blueprint, Request
from sanic.response import HTTPResponse, raw

from api.contract import File, Reply, endpoint
from api.schemas.health import Check, Health, Readiness
from core import metrics
from core.broker import ping_redis
from core.queues import QUEUES, QueueDepth, queue_depths
from domain import operations

logger = logging.getLogger(__name__)

bp = Blueprint("health")

#: Domain gauges are recomputed at most this often, however often Prometheus scrapes.
GAUGES_MAX_AGE_SECONDS = 5.0
_gauges_at = 0.0
_gauges_lock = asyncio.Lock()


@bp.get("/health")
@endpoint(summary="Liveness: the process is up", tag="operations", auth=False, responses={200: Health})
async def health(request: Request) -> Health:
    return Health(status="ok")


async def _check(name: str, probe: Callable[[], Awaitable[str | None]]) -> Check:
    try:
        detail = await asyncio.wait_for(probe(), timeout=2.0)
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        logger.warning("ready: %s check failed: %s", name, type(exc).__name__)
        return Check(ok=False, detail=f"{name} unreachable")
    return Check(ok=detail is None, detail=detail)


async def _database() -> str | None:
    await operations.database_answers()
    return None


async def _redis() -> str | None:
    await asyncio.to_thread(ping_redis)
    return None


async def _migrations() -> str | None:
    missing = await operations.missing_migrations()
    return f"{len(missing)} migration(s) not applied: {', '.join(missing)}" if missing else None


@bp.get("/ready")
@endpoint(summary="Readiness: database, Redis and migrations are usable (503 when not)", tag="operations",
          auth=False, responses={200: Readiness, 503: Readiness})
async def ready(request: Request) -> Reply:
    database, redis, migrations = await asyncio.gather(
        _check("database", _database), _check("redis", _redis), _check("migrations", _migrations))
    if not database.ok:
        migrations = Check(ok=False, detail="database unreachable")
    ok = database.ok and redis.ok and migrations.ok
    body = Readiness(status="ready" if ok else "not_ready", database=database, redis=redis, migrations=migrations)
    return Reply(body, 200 if ok else 503)


async def _refresh_gauges() -> None:
    """Recompute the scrape-time gauges (at most every GAUGES_MAX_AGE_SECONDS).

    The readiness checks first, which never raise: when the database or Redis is down the
    scrape still says which, while the figures that need them keep their last values.
    """
    global _gauges_at
    async with _gauges_lock:
        if time.monotonic() - _gauges_at < GAUGES_MAX_AGE_SECONDS:
            return
        _gauges_at = time.monotonic()
        database, redis, migrations = await asyncio.gather(
            _check("database", _database), _check("redis", _redis), _check("migrations", _migrations))
        passed = {"database": database.ok, "redis": redis.ok, "migrations": database.ok and migrations.ok}
        for name, ok in passed.items():
            metrics.ready.labels(check=name).set(1 if ok else 0)
        if redis.ok:
            try:
                depths = await asyncio.to_thread(_queue_depths)
            except Exception:  # noqa: BLE001 - the other figures are still worth answering
                logger.warning("metrics: queue depths unavailable", exc_info=True)
            else:
                for row in depths:
                    for state in ("ready", "delayed", "in_progress", "dead"):
                        metrics.queue_messages.labels(queue=row.queue, state=state).set(getattr(row, state))
                    metrics.queue_oldest_ready.labels(queue=row.queue).set(row.oldest_ready_age_seconds or 0)
        if not database.ok:
            return
        figures = await operations.gauges()
        metrics.outbox_pending.set(figures.outbox_pending)
        metrics.outbox_oldest_pending.set(figures.outbox_oldest_pending_seconds)
        metrics.outbox_failed.set(figures.outbox_failed)
        for status in ("pending", "retrying", "succeeded", "failed"):
            metrics.webhook_deliveries.labels(status=status).set(figures.webhook_deliveries.get(status, 0))
        metrics.webhooks_disabled.set(figures.webhooks_disabled)
        metrics.webhooks_disabled_by_failures.set(figures.webhooks_disabled_by_failures)
        metrics.signing_in_flight.set(figures.signing_sessions_in_flight)
        metrics.signing_oldest_in_flight.set(figures.signing_sessions_oldest_in_flight_seconds)
        metrics.oldest_transaction.set(figures.oldest_transaction_seconds)
        metrics.key_generations_stuck.set(figures.key_generations_stuck)
        metrics.chain_watchers_halted.set(figures.chain_watchers_halted)


def _queue_depths() -> list[QueueDepth]:
    broker = dramatiq.get_broker()
    if not isinstance(broker, RedisBroker):
        return []
    return queue_depths(broker.client, QUEUES, broker.namespace)


@bp.get("/metrics")
@endpoint(summary="Prometheus metrics: API requests by route and status, and the domain gauges",
          tag="operations", auth=False,
          responses={200: File(media_type="text/plain", description="Prometheus text exposition format")})
async def prometheus_metrics(request: Request) -> HTTPResponse:
    try:
        await _refresh_gauges()
    except Exception:  # noqa: BLE001 - the request metrics are still worth answering
        logger.warning("metrics: domain gauges unavailable", exc_info=True)
    body, content_type = metrics.render()
    return raw(body, status=200, content_type=content_type)
