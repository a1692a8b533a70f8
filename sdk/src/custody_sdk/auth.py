"""Access tokens for signed credentials: requested when needed, renewed before they expire, and
renewed once more when the service refuses one (401).

:class:`TokenAuth` is an ``httpx.Auth`` flow, so it runs inside every request of the SDK's HTTP
client, on the same transport, and concurrent calls share one token (and one renewal):

1. Before a request, a token that is missing or within ``refresh_margin`` of its expiry (at most
   half its lifetime) is replaced: the flow signs a token request (custody_sdk.credentials) and
   sends it first.
2. A request answered 401 gets one more try with a new token, unless another call already
   replaced the refused one. A second 401 is the caller's answer (``Unauthorized``).
3. A token request refused with ``TIMESTAMP_OUT_OF_RANGE`` teaches the flow the server's clock
   (``details.server_unix_seconds``) and is signed again once, so a client with a wrong clock
   still gets in. Any other refusal is raised as the typed error (``INVALID_CREDENTIALS``...).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import AsyncGenerator, Callable, Mapping

import httpx

from custody_sdk.credentials import Credentials
from custody_sdk.errors import UnexpectedResponse, envelope_of, error_from_response

TOKEN_PATH = "/api/v2/auth/access-token"
CLOCK_ERROR = "TIMESTAMP_OUT_OF_RANGE"


@dataclass(frozen=True)
class AccessToken:
    """A bearer token and when it stops working, in server unix seconds."""

    value: str = field(repr=False)
    expires_at: float
    issued_at: float

    def usable_at(self, now: float, *, margin: float) -> bool:
        """Whether the token may still be sent at ``now``, keeping ``margin`` (at most half its
        lifetime) in hand."""
        keep = min(margin, (self.expires_at - self.issued_at) / 2)
        return now < self.expires_at - keep


class TokenAuth(httpx.Auth):
    """The ``httpx.Auth`` of the SDK's client (see the module docstring)."""


    def __init__(self, credentials: Credentials, *, token_url: str, clock: Callable[[], float],
                 headers: Mapping[str, str] | None = None, refresh_margin: float = 60.0) -> None:
        self._credentials = credentials
        self._token_url = token_url
        self._headers = dict(headers or {})
        self._clock = clock
        self._margin = refresh_margin
        self._token: AccessToken | None = None
        self._skew = 0.0  # server clock minus ours, once a token request taught us
        self._lock = asyncio.Lock()
        #: Tokens obtained so far (for metrics and tests).
        self.tokens_issued = 0

    def server_now(self) -> float:
        """The server's unix time as far as this client knows."""
        return self._clock() + self._skew

    def forget(self) -> None:
        """Drop the current token (the next request obtains a new one)."""
        self._token = None

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        await request.aread()  # a request refused with 401 is sent again, body and all
        refused: AccessToken | None = None
        for _ in range(2):  # the request, and once more after a 401
            async with self._lock:
                token = self._token
                if token is None or token is refused or not token.usable_at(self.server_now(), margin=self._margin):
                    token = None
                    for _ in range(2):  # a second signature only after learning the server's clock
                        answer = yield self._token_request(timeout=request.extensions.get("timeout"))
                        await answer.aread()
                        token = self._accept(answer)
                        if token is not None:
                            break
                    if token is None:
                        raise error_from_response(answer)
                    self._token = token
            request.headers["Authorization"] = f"Bearer {token.value}"
            response = yield request
            await response.aread()
            if response.status_code != 401:
                return
            refused = token

    def _token_request(self, *, timeout: Mapping[str, float | None] | None) -> httpx.Request:
        """A signed token request, with the timeout of the request it is for (a request an auth
        flow sends gets none of the client's defaults)."""
        body = self._credentials.token_request(timestamp=int(self.server_now()))
        return httpx.Request("POST", self._token_url, json=body, headers=self._headers,
                             extensions={"timeout": timeout} if timeout else {})

    def _accept(self, response: httpx.Response) -> AccessToken | None:
        """The token of a token answer; None when the answer taught us the server's clock."""
        if response.status_code == 200:
            try:
                body = json.loads(response.content)
                token = AccessToken(value=body["access_token"], expires_at=int(body["expires_at"]) / 1000,
                                    issued_at=self.server_now())
            except (ValueError, KeyError, TypeError):
                raise UnexpectedResponse(response.status_code, response.content) from None
            self.tokens_issued += 1
            return token
        envelope = envelope_of(response.content) or {}
        server_time = (envelope.get("details") or {}).get("server_unix_seconds")
        if response.status_code == 401 and envelope.get("code") == CLOCK_ERROR and server_time is not None:
            skew = float(server_time) - self._clock()
            if abs(skew - self._skew) >= 1:  # something new learnt: sign again
                self._skew = skew
                return None
        raise error_from_response(response)
