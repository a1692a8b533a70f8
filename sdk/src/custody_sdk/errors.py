"""What the SDK raises: one base class, the service's error envelope as typed exceptions.

Every error answer of the service is ``{code, error, details}`` (``code`` is stable between
releases and is what code should branch on; ``error`` is for people; ``details`` carries
structured context such as ``field`` and ``reason`` of a validation error). It is raised as a
:class:`CustodyApiError` subclass chosen by HTTP status, so callers can catch broadly
(``CustodyApiError``) or narrowly (``NotFound``, ``Conflict``, ``CursorExpired``)::

    try:
        vault = await custody.call(get_vault, vault_id=vault_id)
    except NotFound as error:
        assert error.code == "VAULT_NOT_FOUND"

Network failures are :class:`ConnectionFailed` (a timeout is :class:`RequestTimeout`), raised
after the retries the call was allowed (custody_sdk.retry).
"""

from __future__ import annotations

import json
from typing import Any

import httpx


class CustodyError(Exception):
    """Anything the SDK raises."""


class ConnectionFailed(CustodyError):
    """The request got no HTTP answer: connection refused or reset, DNS or TLS failure, timeout."""

    def __init__(self, message: str, *, method: str, url: str, attempts: int) -> None:
        super().__init__(f"{method} {url}: {message} (after {attempts} attempt{'s' if attempts != 1 else ''})")
        self.method, self.url, self.attempts = method, url, attempts


class RequestTimeout(ConnectionFailed):
    """The request timed out (connect, write, read or waiting for a pooled connection)."""


class UnexpectedResponse(CustodyError):
    """A success status or body the SDK's generated part does not know (a newer server?)."""

    def __init__(self, status: int, content: bytes) -> None:
        super().__init__(f"unexpected answer {status}: {content[:500].decode(errors='replace')}")
        self.status, self.content = status, content


class CustodyApiError(CustodyError):
    """An error answer of the service: status, ``code``, ``error`` and ``details``.

    ``request_id`` is the service's ``X-Request-Id`` of the call (the SDK sends one per call and
    keeps it across retries): quote it to support. An answer that is not the envelope (a proxy's
    HTML page, say) gets the code ``HTTP_<status>`` and its first 500 characters as ``error``.
    """

    status: int
    code: str
    error: str
    details: dict[str, Any]

    def __init__(self, *, status: int, code: str, error: str, details: dict[str, Any] | None = None,
                 request_id: str | None = None, method: str = "", url: str = "") -> None:
        self.status, self.code, self.error = status, code, error
        self.details = details or {}
        self.request_id, self.method, self.url = request_id, method, url
        where = f" ({method} {url})" if method else ""
        super().__init__(f"{status} {code}: {error}{where}")

    @property
    def field(self) -> str | None:
        """The offending field of a validation error (``details.field``), if any."""
        value = self.details.get("field")
        return value if isinstance(value, str) else None


class BadRequest(CustodyApiError):
    """400: the request is malformed or invalid (``details.field`` / ``details.reason``)."""


class Unauthorized(CustodyApiError):
    """401: no valid token, or a token request the service refused."""


class Forbidden(CustodyApiError):
    """403: the caller's role lacks the permission (``details.permission``, ``details.role``)."""


class NotFound(CustodyApiError):
    """404: missing, or another workspace's (the service answers both alike)."""


class Conflict(CustodyApiError):
    """409: the object's state does not allow the change."""


class Gone(CustodyApiError):
    """410: what was asked for is no longer kept."""


class CursorExpired(Gone):
    """410 ``CURSOR_EXPIRED``: the change log was compacted past the cursor; take a fresh
    balance snapshot and continue from its cursor (custody_sdk.balance_sync does)."""


class PayloadTooLarge(CustodyApiError):
    """413: the body is over the service's limit."""


class RateLimited(CustodyApiError):
    """429: too many requests (retried for calls that may be retried, honouring Retry-After)."""


class ServerError(CustodyApiError):
    """5xx: the service failed (retried for calls that may be retried)."""


_BY_STATUS: dict[int, type[CustodyApiError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 409: Conflict, 410: Gone,
    413: PayloadTooLarge, 429: RateLimited,
}
_BY_CODE: dict[str, type[CustodyApiError]] = {"CURSOR_EXPIRED": CursorExpired}


def envelope_of(content: bytes) -> dict[str, Any] | None:
    """The error envelope in ``content``, or None when it is not one."""
    try:
        body = json.loads(content)
    except ValueError:
        return None
    if isinstance(body, dict) and isinstance(body.get("code"), str) and isinstance(body.get("error"), str):
        return body
    return None


def error_from_response(response: httpx.Response) -> CustodyApiError:
    """The typed exception for an error answer (its body must have been read)."""
    status = response.status_code
    envelope = envelope_of(response.content)
    if envelope is not None:
        code, message = str(envelope["code"]), str(envelope["error"])
        details = envelope.get("details") if isinstance(envelope.get("details"), dict) else {}
    else:
        code, message, details = f"HTTP_{status}", response.text[:500] or response.reason_phrase, {}
    kind = _BY_CODE.get(code) or _BY_STATUS.get(status) or (ServerError if status >= 500 else CustodyApiError)
    return kind(status=status, code=code, error=message, details=details,
                request_id=response.headers.get("x-request-id"), method=response.request.method,
                url=str(response.request.url.copy_with(query=None)))
