"""The Dramatiq broker on Redis, the middleware that gives actors a database, and messages by name.

This module never imports the actors. A process that only enqueues (the API, the scheduler)
builds messages with :func:`message` from an actor's name alone: the queue follows from the
name (``"webhooks.deliver"`` goes to queue ``webhooks``). A worker process additionally binds
the actors to the broker (``custody.wiring.setup_broker``).

In a worker the AsyncIO middleware runs async actors on an event-loop thread and
:class:`DatabaseLifecycle` opens tortoise on that loop when the worker boots. Tests pass their
own running loop instead: actors then run on the loop that already holds the test database.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, TypeVar

import dramatiq
from dramatiq.asyncio import get_event_loop_thread, set_event_loop_thread
from dramatiq.brokers.redis import RedisBroker
from dramatiq.middleware import AsyncIO, CurrentMessage, Middleware

from core.db import OrmApp, close_database, init_database
from core.settings import Settings, get_settings

logger = logging.getLogger(__name__)
R = TypeVar("R")

#: Redis key prefix of the broker's queues (``custody:<queue>``; see the README).
NAMESPACE = "custody"


def queue_of(actor_name: str) -> str:
    """The queue of an actor: its job family, the part of ``"family.verb"`` before the dot."""
    return actor_name.split(".", 1)[0]


def message(actor_name: str, *args: Any) -> dramatiq.Message:
    """A message for the actor ``actor_name`` (no need to have the actor declared here)."""
    return dramatiq.Message(queue_name=queue_of(actor_name), actor_name=actor_name, args=args, kwargs={},
                            options={})


class DatabaseLifecycle(Middleware):
    """Open tortoise on the worker's event loop after boot; close it on shutdown."""

    def __init__(self, settings: Settings, app: OrmApp) -> None:
        self.settings = settings
        self.app = app

    def after_worker_boot(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
        get_event_loop_thread().run_coroutine(init_database(self.settings, app=self.app))  # type: ignore[union-attr]
        logger.info("worker: database ready")

    def before_worker_shutdown(self, broker: dramatiq.Broker, worker: dramatiq.Worker) -> None:
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
    orm_app: OrmApp | None = None,
) -> RedisBroker:
    """A Redis broker with the service's middleware (not installed as the global broker).

    ``orm_app`` is the ORM app a worker opens on boot (worker processes only); with
    ``event_loop`` the actors run on that already running loop instead (tests, benchmarks).
    """
    settings = settings or get_settings()
    redis_url = url or settings.redis_url
    if not redis_url:
        raise RuntimeError("REDIS_URL is not set (use `custody dev` for embedded servers)")
    broker = RedisBroker(url=redis_url, namespace=namespace)
    broker.add_middleware(CurrentMessage())
    if event_loop is None:
        broker.add_middleware(AsyncIO())
        if orm_app is not None:
            broker.add_middleware(DatabaseLifecycle(settings, orm_app))
    else:
        broker.add_middleware(SharedEventLoop(event_loop))
    return broker


def install_broker(settings: Settings | None = None, **kwargs: Any) -> RedisBroker:
    """Create the broker and install it as dramatiq's global broker (processes that only enqueue)."""
    broker = create_broker(settings, **kwargs)
    dramatiq.set_broker(broker)
    return broker
