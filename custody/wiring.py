"""How a process of the service is put together: its database, its broker, its actors.

The one place that knows both the low-level package and what sits on top of it (the ORM app
of :mod:`models`, the actors of :mod:`actors`). Process entry points, the test suite and the
benchmarks call these; nothing in the service's layers imports this module.
"""

from __future__ import annotations

from typing import Any

import dramatiq
from dramatiq.brokers.redis import RedisBroker
from tortoise.context import TortoiseContext

import actors
from core import db
from core.broker import PoolPrometheus, create_broker
from core.settings import Settings, get_settings
from domain.webhooks.sender import close_sessions
from models import ORM_APP


async def open_database(settings: Settings | None = None) -> TortoiseContext:
    """Open this process's connection pool on the service's tables."""
    return await db.init_database(settings or get_settings(), app=ORM_APP)


async def close_database() -> None:
    await db.close_database()


async def migrate(settings: Settings | None = None) -> None:
    """Apply every committed migration (``custody migrate``)."""
    await db.apply_migrations(settings or get_settings(), app=ORM_APP)


def setup_broker(settings: Settings | None = None, *, worker: bool = True, **kwargs: Any) -> RedisBroker:
    """Create the broker, install it as dramatiq's global broker and bind every actor to it.

    ``worker`` (the default) adds the middleware that opens the database when a worker process
    boots; pass ``event_loop`` (tests, benchmarks) to run actors on an already running loop.
    """
    settings = settings or get_settings()
    if worker and "event_loop" not in kwargs:
        kwargs.setdefault("orm_app", ORM_APP)
        # After the last message: the webhook client sessions, then the database.
        kwargs.setdefault("on_shutdown", (close_sessions,))
        # Messages, errors, retries, durations and in-progress per actor, served by the pool's
        # main process on dramatiq_prom_port (dramatiq's own Prometheus middleware; its server
        # ends with the pool's main process).
        kwargs.setdefault("middleware", (PoolPrometheus(),))
    broker = create_broker(settings, **kwargs)
    dramatiq.set_broker(broker)
    actors.declare_all(broker)
    return broker


def worker_queues() -> list[str]:
    """Every queue an actor of this service uses."""
    return actors.queue_names()
