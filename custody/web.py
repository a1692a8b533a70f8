"""Entry point of the ``web`` process (``custody web``), served by Sanic's own server."""

from __future__ import annotations

from sanic import Sanic

from api.app import create_app
from custody.settings import get_settings


def app_factory() -> Sanic:
    """Called by Sanic in each worker process."""
    return create_app(get_settings())


def serve(*, host: str, port: int, workers: int) -> None:
    from sanic.worker.loader import AppLoader

    loader = AppLoader(factory=app_factory)
    app = loader.load()
    app.prepare(host=host, port=port, workers=workers, single_process=workers == 1, access_log=False,
                motd=False)
    Sanic.serve(primary=app, app_loader=loader) if workers > 1 else Sanic.serve_single(app)
