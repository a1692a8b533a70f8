"""What operators watch: readiness of the database and its migrations, and the gauges an SRE pages on.

Read-only queries, cheap enough to run at every Prometheus scrape (each is one indexed count or
``min``); the API caches them for a few seconds (api/health.py).
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass, field
from datetime import timedelta

from tortoise import connections

from core import clock
from core.outbox import Command
from domain.webhooks.catalogue import STATUS_DISABLED
from domain.webhooks.schedule import DISABLE_AFTER_CONSECUTIVE_FAILURES
from models import ORM_APP
from models.deposits import ChainWatchState
from models.keys import KeySet
from models.sessions import SigningSession
from models.webhooks import Webhook

#: A key generation still running this long after it began is "stuck" (a DKG takes seconds, or
#: minutes while the co-signer is offline).
KEY_GENERATION_STUCK_AFTER = timedelta(minutes=15)


def committed_migrations() -> set[str]:
    """Names of the migration files the code ships (``0001_initial``, ...)."""
    package = __import__(ORM_APP.migrations, fromlist=["__path__"])
    return {module.name for module in pkgutil.iter_modules(package.__path__) if module.name[:4].isdigit()}


async def missing_migrations() -> list[str]:
    """Committed migrations the database has not applied (empty when it is current)."""
    rows = await connections.get("default").execute_query_dict(
        "SELECT name FROM tortoise_migrations WHERE app = $1", [ORM_APP.label])
    return sorted(committed_migrations() - {row["name"] for row in rows})


async def database_answers() -> bool:
    await connections.get("default").execute_query("SELECT 1")
    return True


@dataclass(frozen=True)
class Gauges:
    """The domain's alerting figures at one moment."""

    outbox_pending: int
    outbox_oldest_pending_seconds: float
    outbox_failed: int
    webhook_deliveries: dict[str, int] = field(default_factory=dict)
    webhooks_disabled: int = 0
    signing_sessions_in_flight: int = 0
    signing_sessions_oldest_in_flight_seconds: float = 0.0
    key_generations_stuck: int = 0
    webhooks_disabled_by_failures: int = 0
    oldest_transaction_seconds: float = 0.0
    #: Networks whose deposit watcher a reorganization deeper than finality halted (domain.deposits).
    chain_watchers_halted: int = 0


#: The oldest open transaction of this database that holds a transaction id (it wrote), other
#: than this one: what holds back the commit-order horizon (core/commit_order.py).
_OLDEST_TRANSACTION = """
SELECT extract(epoch FROM clock_timestamp() - min(xact_start))::float8 AS age
FROM pg_stat_activity
WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()
"""


async def gauges() -> Gauges:
    now = clock.now()
    connection = connections.get("default")
    first = await Command.filter(status="pending", run_at__lte=now).order_by("run_at").limit(1).values_list(
        "run_at", flat=True)
    oldest = first[0] if first else None
    deliveries = await connection.execute_query_dict(
        "SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status")
    in_flight = SigningSession.filter(status__in=["round1", "round2"])
    oldest_session = await in_flight.order_by("created_at").limit(1).values_list("created_at", flat=True)
    # Real time on both sides (the server's clock): a transaction's age, not a domain time.
    oldest_transaction = await connection.execute_query_dict(_OLDEST_TRANSACTION)
    return Gauges(
        oldest_transaction_seconds=float(oldest_transaction[0]["age"] or 0.0),
        outbox_pending=await Command.filter(status="pending").count(),
        outbox_oldest_pending_seconds=max((now - oldest).total_seconds(), 0.0) if oldest else 0.0,  # type: ignore[operator]  # flat values_list
        outbox_failed=await Command.filter(status="failed").count(),
        webhook_deliveries={row["status"]: row["n"] for row in deliveries},
        webhooks_disabled=await Webhook.filter(status=STATUS_DISABLED, deleted_at__isnull=True).count(),
        signing_sessions_in_flight=await in_flight.count(),
        signing_sessions_oldest_in_flight_seconds=(max((now - oldest_session[0]).total_seconds(), 0.0)  # type: ignore[operator]  # flat values_list
                                                   if oldest_session else 0.0),
        webhooks_disabled_by_failures=await Webhook.filter(
            status=STATUS_DISABLED, deleted_at__isnull=True,
            consecutive_failures__gte=DISABLE_AFTER_CONSECUTIVE_FAILURES).count(),
        key_generations_stuck=await KeySet.filter(status__not_in=["ready", "failed"],
                                                  created_at__lt=now - KEY_GENERATION_STUCK_AFTER).count(),
        chain_watchers_halted=await ChainWatchState.filter(halted_at__isnull=False).count(),
    )
