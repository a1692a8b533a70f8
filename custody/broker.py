"""The Dramatiq broker on Redis, and the middleware that gives actors a database.

Processes call :func:`setup_broker` before importing :mod:`actors` (actors bind to the broker
that is current when they are declared). In production the AsyncIO middleware runs async
actors on an event-loop thread and :class:`DatabaseLifecycle` opens tortoise on that loop when
the worker boots. Tests pass their own running loop instead: actors then run on the loop that
already holds the test database connection.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, TypeVar

import dramatiq
from dramatiq.asyncio import get_event_loop_thread, set_event_loop_thread
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import AsyncIO, CurrentMessage, Middleware

from custody.settings import Settings, get_settings

logger = logging.getLogger(__name__)
R = TypeVar("R")

#: Redis key prefix of the broker's queues (``custody:<queue>``; see the README).
NAMESPACE = "custody"


class DatabaseLifecycle(Middleware):
    """Open tortoise on the worker's event loop after boot; close it on shutdown."""

    def after_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        from custody.db import init_database

        get_event_loop_thread().run_coroutine(init_database())  # type: ignore[union-attr]
        logger.info("worker: database ready")

    def before_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        from custody.db import close_database

        thread = get_event_loop_thread()
        if thread is not None:
            thread.run_coroutine(close_database())


class _LoopRunner:
    """Stands in for dramatiq's event-loop thread: runs coroutines on a loop owned elsewhere."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def run_coroutine(self, coro: Awaitable[R]) -> R:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()  # type: ignore[arg-type]


class SharedEventLoop(Middleware):
    """Run async actors on an existing, running loop (tests; the database is already open there)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def before_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        set_event_loop_thread(_LoopRunner(self.loop))  # type: ignore[arg-type]

    def after_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        set_event_loop_thread(None)


def create_broker(
    settings: Settings | None = None,
    *,
    url: str | None = None,
    namespace: str = NAMESPACE,
    event_loop: asyncio.AbstractEventLoop | None = None,
) -> RedisBroker:
    """A Redis broker with the service's middleware (not installed as the global broker)."""
    settings = settings or get_settings()
    redis_url = url or settings.redis_url
    if not redis_url:
        raise RuntimeError("REDIS_URL is not set (use `custody dev` for embedded servers)")
    broker = RedisBroker(url=redis_url, namespace=namespace)
    broker.add_middleware(CurrentMessage())
    if event_loop is None:
        broker.add_middleware(AsyncIO())
        broker.add_middleware(DatabaseLifecycle())
    else:
        broker.add_middleware(SharedEventLoop(event_loop))
    return broker


def setup_broker(settings: Settings | None = None, **kwargs: Any) -> RedisBroker:
    """Create the broker, install it as dramatiq's global broker and declare the actors."""
    broker = create_broker(settings, **kwargs)
    dramatiq.set_broker(broker)
    import actors

    actors.declare_all(broker)
    return broker
