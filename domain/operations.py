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
    #: Age of the oldest transaction on the PostgreSQL server holding a transaction id: it holds
    #: back the change log's horizon (docs/wallets.md), so changes after it are served late.
    oldest_transaction_seconds: float = 0.0


#: Every database of the server counts (the horizon is the server's); 0 without the right to see
#: other sessions (pg_read_all_stats).
_OLDEST_TRANSACTION = """
SELECT coalesce(extract(epoch FROM max(now() - xact_start)), 0)::float8 AS age
FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()
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
    return Gauges(
        outbox_pending=await Command.filter(status="pending").count(),
        outbox_oldest_pending_seconds=max((now - oldest).total_seconds(), 0.0) if oldest else 0.0,
        outbox_failed=await Command.filter(status="failed").count(),
        webhook_deliveries={row["status"]: row["n"] for row in deliveries},
        webhooks_disabled=await Webhook.filter(status=STATUS_DISABLED, deleted_at__isnull=True).count(),
        signing_sessions_in_flight=await in_flight.count(),
        signing_sessions_oldest_in_flight_seconds=(max((now - oldest_session[0]).total_seconds(), 0.0)
                                                   if oldest_session else 0.0),
        webhooks_disabled_by_failures=await Webhook.filter(
            status=STATUS_DISABLED, deleted_at__isnull=True,
            consecutive_failures__gte=DISABLE_AFTER_CONSECUTIVE_FAILURES).count(),
        oldest_transaction_seconds=float((await connection.execute_query_dict(_OLDEST_TRANSACTION))[0]["age"]),
        key_generations_stuck=await KeySet.filter(status__not_in=["ready", "failed"],
                                                  created_at__lt=now - KEY_GENERATION_STUCK_AFTER).count(),
    )
