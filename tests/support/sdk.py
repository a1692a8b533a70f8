"""The SDK (sdk/, package custody_sdk) pointed at the suite's in-process app, and a transport
that injects network faults between them.

:func:`sdk_for` gives a :class:`custody_sdk.Custody` that signs as a test caller and sends its
requests over httpx's ASGI transport into the started app (tests/support/client.py): the real
routes, authentication and database, no server. Its clock is the service's (the suite's
FrozenClock), so signed timestamps and token expiry agree with the service unless a test says
otherwise; its waits between retries are recorded, not slept.

:class:`FaultyTransport` sits between the SDK and the app and, by a script, fails attempts the way
networks and gateways do: a refused connection (the request never reached the service), a
gateway's 5xx (never reached it either), or an answer lost on the way back (the service acted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

import httpx

from core import clock
from custody_sdk import Credentials, Custody
from tests.support.callers import Caller
from tests.support.client import BASE_URL, AppClient


@dataclass
class Sent:
    """One request as it left the SDK, and what came back (None: no answer)."""

    method: str
    path: str
    headers: httpx.Headers
    body: bytes
    status: int | None

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass
class FaultyTransport(httpx.AsyncBaseTransport):
    """Forwards to ``inner`` unless the script says otherwise for the next request to a path.

    Script entries (consumed one per matching request, in order): ``"refuse"`` raises
    ``httpx.ConnectError`` without forwarding; an ``int`` answers that status as a gateway
    would, without forwarding; ``"lose"`` forwards, then raises ``httpx.ReadError`` in place of
    the answer; ``"replay"`` answers, without forwarding, 409 with the body of the last lost
    answer: what a service that keeps idempotency keys answers a repeated key (the spec's
    POST /transaction); ``"pass"`` forwards. Token requests are forwarded untouched unless
    ``faults_on_tokens`` is set. Everything sent is recorded in ``sent``.
    """

    inner: httpx.AsyncBaseTransport
    script: list[str | int] = field(default_factory=list)
    faults_on_tokens: bool = False
    sent: list[Sent] = field(default_factory=list)
    #: Answers of lost requests, as the service gave them (``"lose"``).
    lost: list[httpx.Response] = field(default_factory=list)

    def to(self, path: str) -> list[Sent]:
        return [s for s in self.sent if s.path == path]

    @property
    def token_requests(self) -> list[Sent]:
        return self.to("/api/v2/auth/access-token")

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        record = Sent(request.method, request.url.path, request.headers.copy(), body, None)
        self.sent.append(record)
        is_token = request.url.path == "/api/v2/auth/access-token"
        step = self.script.pop(0) if self.script and (self.faults_on_tokens or not is_token) else "pass"
        if step == "refuse":
            raise httpx.ConnectError("connection refused (injected)", request=request)
        if step == "replay":
            record.status = 409
            return httpx.Response(409, content=self.lost[-1].content, request=request,
                                  headers={"content-type": "application/json"})
        if isinstance(step, int):
            record.status = step
            return httpx.Response(step, text="<html>bad gateway</html>", request=request)
        response = await self.inner.handle_async_request(request)
        await response.aread()
        if step == "lose":
            self.lost.append(response)
            raise httpx.ReadError("connection reset before the answer (injected)", request=request)
        record.status = response.status_code
        return response


@dataclass
class RecordedSleep:
    """The SDK's ``sleep``: records each wait and returns at once."""

    waits: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def credentials_of(caller: Caller) -> Credentials:
    """An API user's credentials, or a person's paired device's (tests.support.approvals.DeviceCaller)."""
    device_id = getattr(caller, "device_id", None)
    if device_id is not None:
        return Credentials.from_key(client_id=device_id, private_key=caller.signing_key, client_type="device",
                                    workspace_id=caller.workspace_id)
    return Credentials.from_key(client_id=caller.user_id, private_key=caller.signing_key,
                                workspace_id=caller.workspace_id)


def service_clock() -> float:
    return clock.now().timestamp()


def sdk_for(client: AppClient, caller: Caller, *, transport: httpx.AsyncBaseTransport | None = None,
            clock_: Callable[[], float] = service_clock, **options: Any) -> Custody:
    """A Custody client signing as ``caller``, over ``transport`` (default: straight into the app)."""
    options.setdefault("sleep", RecordedSleep())
    return Custody(credentials=credentials_of(caller), base_url=BASE_URL,
                   transport=transport or httpx.ASGITransport(app=client.app), clock=clock_, **options)


def faulty(client: AppClient, *script: str | int, **options: Any) -> FaultyTransport:
    """A :class:`FaultyTransport` in front of the app, running ``script``."""
    return FaultyTransport(httpx.ASGITransport(app=client.app), list(script), **options)
