"""A real webhook receiver on loopback, and the webhook tests' fixtures (a pytest plugin:
tests/conftest.py registers it).

The receiver is an aiohttp server on 127.0.0.1 (a random free port) that records every request
and answers as told: a status code (2xx, 4xx, 5xx), ``"hang"`` (answer only after
``hang_seconds``, past the client timeout) or ``"close"`` (drop the connection without an
answer). ``script`` gives the answers of the next requests in order; ``default`` answers the rest.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Iterator

import pytest
from aiohttp import web

from core.settings import Settings, configure, get_settings

Behaviour = int | str


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def event_id(self) -> str:
        return self.headers["webhook-id"]


@dataclass
class Receiver:
    default: Behaviour = 200
    script: list[Behaviour] = field(default_factory=list)
    hang_seconds: float = 5.0
    #: Extra time every request takes before it is answered (a slow receiver).
    delay_seconds: float = 0.0
    response_body: str = '{"ok":true}'
    received: list[Received] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    port: int = 0
    _runner: web.AppRunner | None = None

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def by_path(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        body = await request.read()
        self.received.append(Received(path=request.path, headers=dict(request.headers), body=body, at=time.time()))
        behaviour = self.script.pop(0) if self.script else self.default
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay_seconds:
                await asyncio.sleep(self.delay_seconds)
            if behaviour == "hang":
                await asyncio.sleep(self.hang_seconds)
                return web.Response(status=200, text="too late")
            if behaviour == "close":
                assert request.transport is not None
                request.transport.abort()
                raise asyncio.CancelledError  # nothing is written back
            return web.Response(status=int(behaviour), text=self.response_body, content_type="application/json")
        finally:
            self.in_flight -= 1

    async def start(self) -> "Receiver":
        app = web.Application()
        app.router.add_route("POST", "/{tail:.*}", self._handle)
        # Stopping does not wait for requests still hanging: it cancels them.
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # noqa: SLF001
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    from domain.webhooks.sender import close_sessions

    running = await Receiver().start()
    yield running
    await running.stop()
    await close_sessions()  # the delivery actor's client session; the next test opens a fresh one


@pytest.fixture
async def second_receiver() -> AsyncIterator[Receiver]:
    running = await Receiver().start()
    yield running
    await running.stop()


@pytest.fixture
def webhook_settings(settings: Settings) -> Iterator[Callable[..., Settings]]:
    """``webhook_settings(webhook_timeout_seconds=0.3, ...)`` changes settings for one test."""

    def apply(**changes: Any) -> Settings:
        return configure(get_settings().with_overrides(**changes))

    yield apply
    configure(settings)
