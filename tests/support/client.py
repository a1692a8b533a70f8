"""The suite's HTTP client: requests into the app in-process, its start-up run once per session.

sanic-testing's ``app.asgi_client`` runs the app's whole start-up (router, signals, listeners)
before every request and its shutdown after it, about 100 ms a request. This client starts the
app once through the ASGI lifespan protocol, as an ASGI server would, then sends every request
over httpx's ASGI transport: the same routes, middleware and error handlers, and the calling
convention of sanic-testing, ``_, response = await client.get(...)``.

The real server's own start-up (``custody web``) is exercised by tests/custody/test_cli.py.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from sanic import Sanic

BASE_URL = "http://testserver"


class Response:
    """What the tests read of an answer: ``status``, ``json``, ``body``, ``text``, ``headers``."""

    def __init__(self, response: httpx.Response) -> None:
        self.status = response.status_code
        self.body = response.content
        self.headers = response.headers
        self._response = response

    @property
    def text(self) -> str:
        return self._response.text

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class AppClient:
    """In-process requests to a started Sanic app; see the module docstring."""

    def __init__(self, app: Sanic) -> None:
        self.app = app
        self._http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE_URL)
        self._to_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._from_app: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._lifespan: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Run the app's start-up (the ASGI lifespan startup event)."""
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
        self._lifespan = asyncio.create_task(self.app(scope, self._to_app.get, self._from_app.put))
        await self._lifespan_event("startup")

    async def stop(self) -> None:
        """Run the app's shutdown (the ASGI lifespan shutdown event) and close the client."""
        await self._http.aclose()
        if self._lifespan is not None:
            await self._lifespan_event("shutdown")
            await self._lifespan
            self._lifespan = None

    async def _lifespan_event(self, event: str) -> None:
        await self._to_app.put({"type": f"lifespan.{event}"})
        answer = await self._from_app.get()
        assert answer["type"] == f"lifespan.{event}.complete", answer

    async def request(self, method: str, path: str, **kwargs: Any) -> tuple[None, Response]:
        """``(None, response)``: sanic-testing's ``(request, response)`` without the request."""
        return None, Response(await self._http.request(method, path, **kwargs))

    async def get(self, path: str, **kwargs: Any) -> tuple[None, Response]:
        return await self.request("GET", path, **kwargs)

    async def post(self, path: str, **kwargs: Any) -> tuple[None, Response]:
        return await self.request("POST", path, **kwargs)

    async def put(self, path: str, **kwargs: Any) -> tuple[None, Response]:
        return await self.request("PUT", path, **kwargs)

    async def patch(self, path: str, **kwargs: Any) -> tuple[None, Response]:
        return await self.request("PATCH", path, **kwargs)

    async def delete(self, path: str, **kwargs: Any) -> tuple[None, Response]:
        return await self.request("DELETE", path, **kwargs)


class AsgiTransport:
    """The transport of client/cosigner.py (``request(...) -> (status, json)``) over :class:`AppClient`."""

    def __init__(self, client: AppClient) -> None:
        self.client = client

    async def request(self, method: str, path: str, *, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        kwargs: dict[str, Any] = {"headers": headers or {}}
        if json_body is not None:
            kwargs["json"] = json_body
        _, response = await self.client.request(method, path, **kwargs)
        return response.status, response.json
