"""The client: :class:`Custody`, the SDK's HTTP layer under the generated operations.

The generated part (``custody_sdk.openapi``) knows every operation's path, parameters and
models; this module adds what a generator cannot: signed-token authentication
(custody_sdk.auth), a default and a per-call workspace, per-call timeouts and idempotency keys,
retries (custody_sdk.retry), typed errors (custody_sdk.errors), and iterators over paged lists
and the change log.

    from custody_sdk import Custody
    from custody_sdk.openapi.api.vaults import create_vault, list_vaults
    from custody_sdk.openapi.models import VaultCreate

    async with Custody.from_credentials_file("custody-credentials.json") as custody:
        vault = await custody.call(create_vault, body=VaultCreate(name="Treasury"))
        async for vault in custody.items(list_vaults, page_size=100):
            print(vault.id, vault.name)

An operation is one generated module (``create_vault`` above); ``call`` passes its keyword
arguments to the module's ``asyncio_detailed`` and returns the parsed success model. The
generated functions can also be called directly with ``client=custody.api``: they then run
through the same layer (errors raised, retries, tokens), but without per-call options.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import time
import uuid
from dataclasses import dataclass
from typing import Any, AsyncIterator, Awaitable, Callable, Generic, Mapping, Protocol, TypeVar

import attrs
import httpx

from custody_sdk.auth import TOKEN_PATH, TokenAuth
from custody_sdk.credentials import Credentials
from custody_sdk.errors import (
    ConnectionFailed,
    CustodyApiError,
    RequestTimeout,
    ServerError,
    UnexpectedResponse,
    envelope_of,
    error_from_response,
)
from custody_sdk.openapi.api.transactions import changes as changes_operation
from custody_sdk.openapi.client import AuthenticatedClient
from custody_sdk.openapi.errors import UnexpectedStatus
from custody_sdk.openapi.models import ChangesPage
from custody_sdk.openapi.types import UNSET, Response
from custody_sdk.retry import IDEMPOTENCY_HEADER, RetryPolicy, retry_after_seconds

__version__ = "0.1.0"
USER_AGENT = f"custody-sdk-python/{__version__} httpx/{httpx.__version__}"
WORKSPACE_HEADER = "X-Workspace-Id"
REQUEST_ID_HEADER = "X-Request-Id"
#: Connect within 10 s; every other phase (write, read, pool) within 30 s.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)

T = TypeVar("T")
log = logging.getLogger("custody_sdk")


class Operation(Protocol[T]):
    """A generated operation module (``custody_sdk.openapi.api.<tag>.<operation>``): a type
    checker infers a call's result type from the module's ``asyncio_detailed``."""

    @property
    def asyncio_detailed(self) -> Callable[..., Awaitable[Response[T]]]: ...

    @property
    def _parse_response(self) -> Callable[..., T | None]: ...


@dataclass(frozen=True)
class Result(Generic[T]):
    """A call's parsed answer with what else it told: status, headers, request id, and whether
    it was a replay (a keyed POST the service had already carried out answered 409 with it)."""

    value: T
    status_code: int
    headers: httpx.Headers
    request_id: str | None
    replayed: bool


@dataclass(frozen=True)
class Reply:
    """The answer of :meth:`Custody.request` (an endpoint the generated part does not know yet)."""

    status_code: int
    json: Any
    headers: httpx.Headers
    request_id: str | None
    replayed: bool


@dataclass(frozen=True)
class _Shared:
    """What a client and its :meth:`Custody.with_workspace` siblings have in common."""

    timeout: httpx.Timeout
    retry: RetryPolicy
    sleep: Callable[[float], Awaitable[None]]
    headers: dict[str, str]
    transport: httpx.AsyncBaseTransport


@dataclass
class _CallOptions:
    """What one call asks of the HTTP layer, and what the layer reports back."""

    workspace_id: str | None = None
    idempotency_key: str | None = None
    timeout: httpx.Timeout | None = None
    replayed: bool = False
    response: httpx.Response | None = None


_current_call: contextvars.ContextVar[_CallOptions | None] = contextvars.ContextVar("custody_sdk_call", default=None)


def _timeout(value: float | httpx.Timeout | None) -> httpx.Timeout | None:
    return value if isinstance(value, httpx.Timeout) or value is None else httpx.Timeout(value)


class _Borrowed(httpx.AsyncBaseTransport):
    """Another client's transport (and connection pool), which this client does not close."""

    def __init__(self, transport: httpx.AsyncBaseTransport) -> None:
        self._transport = transport

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._transport.handle_async_request(request)

    async def aclose(self) -> None:
        pass


class _Session(httpx.AsyncClient):
    """httpx's client with the SDK's rules around ``send``: per-call options, retries, replays
    of keyed POSTs, and error answers raised as typed exceptions."""

    def __init__(self, *, retry: RetryPolicy, sleep: Callable[[float], Awaitable[None]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.retry = retry
        self._sleep = sleep

    async def send(self, request: httpx.Request, **kwargs: Any) -> httpx.Response:
        options = _current_call.get()
        if options is not None:
            if options.workspace_id:
                request.headers[WORKSPACE_HEADER] = options.workspace_id
            if options.idempotency_key:
                request.headers[IDEMPOTENCY_HEADER] = options.idempotency_key
            if options.timeout is not None:
                request.extensions["timeout"] = options.timeout.as_dict()
        # One id for every attempt of the call: the service logs it, errors carry it.
        request.headers.setdefault(REQUEST_ID_HEADER, str(uuid.uuid4()))
        retryable = self.retry.allows(request)
        attempt = 0
        while True:
            attempt += 1
            last_attempt = not retryable or attempt >= self.retry.max_attempts
            try:
                response = await super().send(request, **kwargs)
            except httpx.TransportError as exc:
                if last_attempt:
                    failure = RequestTimeout if isinstance(exc, httpx.TimeoutException) else ConnectionFailed
                    raise failure(str(exc) or type(exc).__name__, method=request.method,
                                  url=str(request.url.copy_with(query=None)), attempts=attempt) from exc
                wait = self.retry.delay(attempt)
                log.info("%s %s failed (%s); attempt %d in %.2fs", request.method, request.url.path,
                         type(exc).__name__, attempt + 1, wait)
            except ServerError as exc:  # a token request the service failed (custody_sdk.auth)
                if last_attempt:
                    raise
                wait = self.retry.delay(attempt)
                log.info("%s %s: token request answered %d; attempt %d in %.2fs", request.method,
                         request.url.path, exc.status, attempt + 1, wait)
            else:
                if last_attempt or not self.retry.retries_status(response.status_code):
                    break
                await response.aread()
                await response.aclose()
                wait = self.retry.delay(attempt, retry_after=retry_after_seconds(response))
                log.info("%s %s answered %d; attempt %d in %.2fs", request.method, request.url.path,
                         response.status_code, attempt + 1, wait)
            await self._sleep(wait)
        if response.status_code < 400:
            return response
        await response.aread()
        if _is_replay(request, response):
            if options is not None:
                options.replayed, options.response = True, response
            return response
        raise error_from_response(response)


def _is_replay(request: httpx.Request, response: httpx.Response) -> bool:
    """A 409 to a keyed POST that carries an object, not the error envelope: the service had
    already carried out this request and answers with what it created."""
    if response.status_code != 409 or request.method != "POST" or not request.headers.get(IDEMPOTENCY_HEADER):
        return False
    try:
        body = response.json()
    except ValueError:
        return False
    return isinstance(body, dict) and envelope_of(response.content) is None


class _GeneratedClient(AuthenticatedClient):
    """The generated client bound to the SDK's session; the generated synchronous functions
    would bypass it, so they are refused."""

    def get_httpx_client(self) -> httpx.Client:
        raise TypeError("custody_sdk is asynchronous: use the operations' asyncio()/asyncio_detailed(), "
                        "or Custody.call()")


class Custody:
    """A client of the Custody Wallet Service (see the module docstring).

    :param base_url: The service's URL (``https://custody.example.com``); defaults to the
        credentials' ``base_url``.
    :param credentials: Who signs token requests (custody_sdk.credentials).
    :param workspace_id: Sent as ``X-Workspace-Id`` unless a call names another; defaults to the
        credentials' workspace. A caller with one workspace may leave it out.
    :param timeout: Seconds (or an ``httpx.Timeout``) for each attempt of a request.
    :param retry: Which failures are retried and how (custody_sdk.retry).
    :param transport: An httpx transport, e.g. ``httpx.ASGITransport(app=...)`` to call an app
        in-process, or one with its own TLS or proxy settings.
    :param clock: Unix seconds; token expiry and request timestamps are judged by it.
    :param sleep: How to wait between attempts (``asyncio.sleep``).
    :param refresh_margin: Renew a token this many seconds before it expires.
    :param headers: Extra headers sent with every request.
    """

    def __init__(self, *, credentials: Credentials, base_url: str | None = None,
                 workspace_id: str | uuid.UUID | None = None, timeout: float | httpx.Timeout = DEFAULT_TIMEOUT,
                 retry: RetryPolicy | None = None, transport: httpx.AsyncBaseTransport | None = None,
                 clock: Callable[[], float] = time.time, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 refresh_margin: float = 60.0, headers: Mapping[str, str] | None = None) -> None:
        base_url = base_url or credentials.base_url
        if not base_url:
            raise ValueError("base_url is needed: pass it, or use credentials that carry one")
        self.base_url = base_url.rstrip("/")
        self.credentials = credentials
        self._shared = _Shared(timeout=_timeout(timeout) or DEFAULT_TIMEOUT, retry=retry or RetryPolicy(),
                               sleep=sleep, headers={"User-Agent": USER_AGENT, **(headers or {})},
                               transport=transport or httpx.AsyncHTTPTransport())
        self.auth = TokenAuth(credentials, token_url=self.base_url + TOKEN_PATH, clock=clock,
                              headers=self._shared.headers, refresh_margin=refresh_margin)
        self._open(workspace_id or credentials.workspace_id, self._shared.transport)

    def _open(self, workspace_id: str | uuid.UUID | None, transport: httpx.AsyncBaseTransport) -> None:
        self.workspace_id = str(workspace_id) if workspace_id else None
        headers = dict(self._shared.headers)
        if self.workspace_id:
            headers[WORKSPACE_HEADER] = self.workspace_id
        self.http = _Session(base_url=self.base_url, auth=self.auth, transport=transport, headers=headers,
                             timeout=self._shared.timeout, retry=self._shared.retry, sleep=self._shared.sleep,
                             follow_redirects=False)
        #: The generated client over this client's HTTP layer: ``operation.asyncio(client=custody.api, ...)``.
        self.api = _GeneratedClient(base_url=self.base_url, token="", raise_on_unexpected_status=True)
        self.api.set_async_httpx_client(self.http)

    @classmethod
    def from_credentials_file(cls, path: str | os.PathLike[str], **options: Any) -> "Custody":
        """A client for the file ``custody bootstrap --out FILE`` wrote (its ``base_url`` and
        ``workspace_id`` unless ``options`` name others)."""
        return cls(credentials=Credentials.from_file(path), **options)

    def with_workspace(self, workspace_id: str | uuid.UUID) -> "Custody":
        """A client for another workspace that shares this one's token and connections (closing
        it closes nothing of this one)."""
        sibling = object.__new__(type(self))
        sibling.base_url, sibling.credentials, sibling.auth = self.base_url, self.credentials, self.auth
        sibling._shared = self._shared
        sibling._open(workspace_id, _Borrowed(self._shared.transport))
        return sibling

    async def aclose(self) -> None:
        """Close the connections (a client from :meth:`with_workspace` leaves them open)."""
        await self.http.aclose()

    async def __aenter__(self) -> "Custody":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # --- calls --------------------------------------------------------------------------------

    async def call(self, operation: Operation[T], /, *, workspace_id: str | uuid.UUID | None = None,
                   idempotency_key: str | None = None, timeout: float | httpx.Timeout | None = None,
                   **arguments: Any) -> T:
        """Call a generated operation and return its parsed success answer.

        ``arguments`` are the operation's own (``body=``, path and query parameters).
        ``workspace_id`` overrides the client's workspace for this call; ``timeout`` its
        timeout. ``idempotency_key`` sends ``X-Idempotency-Key`` and makes a POST retryable:
        every attempt carries the same key, and a 409 answer carrying the object the service
        had already created is this call's success (see :meth:`call_detailed` to tell).
        """
        return (await self.call_detailed(operation, workspace_id=workspace_id, idempotency_key=idempotency_key,
                                         timeout=timeout, **arguments)).value

    async def call_detailed(self, operation: Operation[T], /, *, workspace_id: str | uuid.UUID | None = None,
                            idempotency_key: str | None = None, timeout: float | httpx.Timeout | None = None,
                            **arguments: Any) -> Result[T]:
        """Like :meth:`call`, with the status, headers, request id and replay flag."""
        options = _CallOptions(workspace_id=str(workspace_id) if workspace_id else None,
                               idempotency_key=idempotency_key, timeout=_timeout(timeout))
        bound = _current_call.set(options)
        try:
            response = await operation.asyncio_detailed(client=self.api, **arguments)
            status, headers, value = int(response.status_code), httpx.Headers(response.headers), response.parsed
        except UnexpectedStatus as exc:
            if not options.replayed or options.response is None:
                raise UnexpectedResponse(exc.status_code, exc.content) from None
            status, headers = options.response.status_code, options.response.headers
            value = _parse_replay(operation, self.api, options.response)
        finally:
            _current_call.reset(bound)
        return Result(value=value, status_code=status, headers=headers,  # type: ignore[arg-type]
                      request_id=headers.get(REQUEST_ID_HEADER), replayed=options.replayed)

    async def request(self, method: str, path: str, *, params: Mapping[str, Any] | None = None, json: Any = None,
                      workspace_id: str | uuid.UUID | None = None, idempotency_key: str | None = None,
                      timeout: float | httpx.Timeout | None = None) -> Reply:
        """Call a path the generated part does not know yet (a newer server), with the same
        authentication, retries, idempotency and typed errors as :meth:`call`."""
        options = _CallOptions(workspace_id=str(workspace_id) if workspace_id else None,
                               idempotency_key=idempotency_key, timeout=_timeout(timeout))
        bound = _current_call.set(options)
        try:
            response = await self.http.request(method, path, params=params, json=json)
        finally:
            _current_call.reset(bound)
        body = response.json() if response.content else None
        return Reply(status_code=response.status_code, json=body, headers=response.headers,
                     request_id=response.headers.get(REQUEST_ID_HEADER), replayed=options.replayed)

    # --- iterators ----------------------------------------------------------------------------

    async def pages(self, operation: Operation[T], /, *, page_size: int | None = None,
                    workspace_id: str | uuid.UUID | None = None, **arguments: Any) -> AsyncIterator[T]:
        """Every page of an offset/limit list (``list_vaults``, ``list_assets``, ...), from
        ``offset`` (default 0) until ``total`` is reached or a page comes back empty.

        Each page is one call with ``limit=page_size`` (the list's default when None). Objects
        created or deleted while paging can shift later pages by as many places.
        """
        offset = arguments.pop("offset", 0)
        if page_size is not None:
            arguments["limit"] = page_size
        while True:
            page = await self.call(operation, workspace_id=workspace_id, offset=offset, **arguments)
            yield page
            found = items_of(page)
            offset += len(found)
            if not found or offset >= page.total:  # type: ignore[attr-defined]
                return

    async def items(self, operation: Operation[Any], /, *, page_size: int | None = None,
                    workspace_id: str | uuid.UUID | None = None, **arguments: Any) -> AsyncIterator[Any]:
        """Every item of an offset/limit list, page after page (see :meth:`pages`)."""
        async for page in self.pages(operation, page_size=page_size, workspace_id=workspace_id, **arguments):
            for item in items_of(page):
                yield item

    async def changes(self, *, since_cursor: int | str | None = None, page_size: int | None = None,
                      workspace_id: str | uuid.UUID | None = None) -> AsyncIterator[ChangesPage]:
        """Pages of the change log (``GET /api/v1/transactions/changes``) after ``since_cursor``
        (from the start of the log when None) until ``has_more`` is false.

        Store each page's ``next_cursor`` once its items are handled: it is where to continue.
        A cursor the log was compacted past raises :class:`~custody_sdk.errors.CursorExpired`
        (take a fresh balance snapshot; custody_sdk.balance_sync does).
        """
        cursor = None if since_cursor is None else str(since_cursor)
        while True:
            page = await self.call(changes_operation, workspace_id=workspace_id,
                                   since_cursor=UNSET if cursor is None else cursor,
                                   limit=UNSET if page_size is None else page_size)
            yield page
            cursor = str(page.next_cursor)
            if not page.has_more:
                return


def items_of(page: Any) -> list[Any]:
    """The items of one page of an offset/limit list: its only list field besides extras."""
    if not attrs.has(type(page)) or not hasattr(page, "total"):
        raise TypeError(f"{type(page).__name__} is not a page of an offset/limit list (no total)")
    lists: list[list[Any]] = [getattr(page, item.name) for item in attrs.fields(type(page))
                               if item.name != "additional_properties" and isinstance(getattr(page, item.name), list)]
    if len(lists) != 1:
        raise TypeError(f"{type(page).__name__} is not a page of an offset/limit list (one list field expected)")
    return lists[0]


def _parse_replay(operation: Operation[T], api: AuthenticatedClient, response: httpx.Response) -> T:
    """The replayed object parsed as the operation's success answer.

    A 409 the document declares with the object is parsed by the generated code itself; this is
    for an operation that declares only its success status: the first of 200, 201 and 202 the
    generated parser accepts.
    """
    lenient = AuthenticatedClient(base_url=api._base_url, token="", raise_on_unexpected_status=False)
    for status in (200, 201, 202):
        as_success = httpx.Response(status, content=response.content, headers=response.headers,
                                    request=response.request)
        parsed = operation._parse_response(client=lenient, response=as_success)
        if parsed is not None:
            return parsed
    raise UnexpectedResponse(response.status_code, response.content)


__all__ = ["Custody", "CustodyApiError", "Operation", "Reply", "Result", "items_of"]
