"""The API of this process served on a real loopback socket (for clients in other processes)."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sanic import Sanic

from api.app import create_app
from core.settings import Settings


@asynccontextmanager
async def served_api(settings: Settings, *, name: str) -> AsyncIterator[int]:
    """Serve the API (one Sanic app named ``name``) on 127.0.0.1 and yield its port; closed on exit."""
    Sanic.test_mode = True
    app = create_app(settings, name=name)
    # A socket bound by us: Sanic takes port 0 for "unset" and would bind its default, 8000.
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = await app.create_server(sock=listener, return_asyncio_server=True, access_log=False)
    assert server is not None
    await server.startup()
    await server.start_serving()
    try:
        yield server.server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    finally:
        server.close()
        await server.wait_closed()
