"""Entry point of the ``web`` process (``custody web``), served by Sanic's own server."""

from __future__ import annotations

import os

import dramatiq
from sanic import Sanic
from sanic.worker.loader import AppLoader
from sanic.worker.manager import WorkerManager

from api.app import create_app
from core.broker import NotifyingRedisBroker, install_broker
from core.settings import get_settings
from custody.wiring import close_database, open_database

#: How long the main process waits for every worker to say it started, in Sanic's unit (0.1 s).
#: Sanic's 30 s ends the whole service when one worker is slow to import and open its database,
#: which several workers starting at once on a busy machine are (seen at load 20 on 2 cores);
#: a worker that really hangs is still stopped, after 3 minutes.
WORKER_START_LIMIT = 1800


def app_factory() -> Sanic:
    """Called by Sanic in each worker process: the API, with its database and broker."""
    settings = get_settings()
    app = create_app(settings)

    @app.before_server_start
    async def open_resources(app: Sanic) -> None:
        install_broker(settings)
        await open_database(settings)

    @app.after_server_stop
    async def close_resources(app: Sanic) -> None:
        broker = dramatiq.get_broker()
        if isinstance(broker, NotifyingRedisBroker):
            await broker.close_async_client()  # the after-commit hop's client of this loop
        await close_database()

    return app


def serve(*, host: str, port: int, workers: int) -> None:
    # Sanic tells a terminal that it runs "in PRODUCTION mode" and to consider --debug: the service
    # never runs Sanic's debug mode (it would answer errors with tracebacks), in development neither.
    os.environ.setdefault("SANIC_IGNORE_PRODUCTION_WARNING", "1")
    WorkerManager.THRESHOLD = WORKER_START_LIMIT  # the documented knob (Sanic's "worker ack" guide)
    loader = AppLoader(factory=app_factory)
    app = loader.load()
    app.prepare(host=host, port=port, workers=workers, single_process=workers == 1, access_log=False,
                motd=False)
    Sanic.serve(primary=app, app_loader=loader) if workers > 1 else Sanic.serve_single(app)
