"""The outbound request of one delivery attempt: signed, bounded in time, behind the SSRF guard.

:func:`post` is the production :data:`domain.webhooks.delivery.Send`. Outbound requests go
through :class:`GuardedResolver`, which vets every address a host resolves to and hands the
connector only those addresses (no DNS rebinding); IP-literal URLs are vetted before the request
(once per URL and process: the verdict depends on the URL and the loopback setting alone);
and :func:`guarded_socket` checks the peer address of every connection attempt, for every host.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import ssl
import time

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver

from core import clock
from core.settings import get_settings
from domain.errors import ValidationFailed
from domain.webhooks import signatures as signing
from domain.webhooks import url_guard
from domain.webhooks.catalogue import RESPONSE_BODY_LIMIT
from domain.webhooks.delivery import AttemptOutcome, DeliveryJob, truncate_body


class GuardedResolver(AbstractResolver):
    """Resolve with the system resolver, then refuse the host if any address is forbidden.

    aiohttp connects only to the addresses this returns, so the vetted addresses are exactly
    the ones connected to. IP-literal URLs never reach a resolver; :func:`post` vets those.
    """

    def __init__(self) -> None:
        self._inner = ThreadedResolver()

    async def resolve(self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        results = await self._inner.resolve(host, port, family)
        allow_loopback = get_settings().webhook_allow_loopback
        for result in results:
            category = url_guard.refusal(result["host"], allow_loopback=allow_loopback)
            if category is not None:
                raise url_guard.AddressRefused(category, result["host"])
        return results

    async def close(self) -> None:
        await self._inner.close()


def guarded_socket(addr_info: tuple) -> socket.socket:
    """The socket of one connection attempt, after checking the address it will connect to.

    aiohttp calls this for every address it tries, whether the host was a name (already vetted
    by :class:`GuardedResolver`) or an IP literal (no resolver involved): the last check before
    a byte leaves, so no parsing difference between the guard and the HTTP client can reach a
    forbidden address.
    """
    family, kind, proto, _, address = addr_info
    category = url_guard.refusal(str(address[0]), allow_loopback=get_settings().webhook_allow_loopback)
    if category is not None:
        raise url_guard.AddressRefused(category, str(address[0]))
    return socket.socket(family=family, type=kind, proto=proto)


#: One client session per event loop (a worker process has one loop; tests share theirs).
_sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}


def _session() -> aiohttp.ClientSession:
    loop = asyncio.get_running_loop()
    session = _sessions.get(loop)
    if session is None or session.closed:
        connector = aiohttp.TCPConnector(resolver=GuardedResolver(), use_dns_cache=False, limit=0,
                                         enable_cleanup_closed=True, socket_factory=guarded_socket)
        # trust_env=False: never route webhooks through proxies from the environment.
        session = aiohttp.ClientSession(connector=connector, trust_env=False,
                                        headers={"User-Agent": signing.USER_AGENT})
        _sessions[loop] = session
    return session


async def close_sessions() -> None:
    """Close this loop's client session (process shutdown, tests)."""
    session = _sessions.pop(asyncio.get_running_loop(), None)
    if session is not None:
        await session.close()


async def _read_prefix(response: aiohttp.ClientResponse) -> bytes:
    """The first 4 KB of the body; the rest is not read (the connection is then dropped)."""
    chunks, size = [], 0
    while size < RESPONSE_BODY_LIMIT:
        chunk = await response.content.read(RESPONSE_BODY_LIMIT - size)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _describe(exc: BaseException, timeout: float) -> str:
    """Attempt error text: what went wrong, in words an integrator can act on."""
    if isinstance(exc, (asyncio.TimeoutError, aiohttp.ServerTimeoutError)):
        return f"timeout: no complete answer within {timeout:g} s"
    if isinstance(exc, url_guard.AddressRefused):
        return str(exc)
    if isinstance(exc, aiohttp.ClientConnectorDNSError):
        if isinstance(exc.os_error, url_guard.AddressRefused):
            return str(exc.os_error)
        return f"DNS failure: {exc.os_error}"
    if isinstance(exc, (aiohttp.ClientConnectorCertificateError, aiohttp.ClientSSLError, ssl.SSLError)):
        return f"TLS failure: {exc}"
    if isinstance(exc, aiohttp.ClientConnectorError):
        if isinstance(exc.os_error, url_guard.AddressRefused):
            return str(exc.os_error)
        return f"connection failed: {exc.os_error.strerror or exc.os_error}"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "connection closed by the receiver before a response"
    if isinstance(exc, aiohttp.ClientError):
        return f"HTTP client error: {type(exc).__name__}: {exc}"
    return f"{type(exc).__name__}: {exc}"


#: How many webhook URLs :func:`_checked_target` keeps (a bound, not a tuning knob: a worker
#: delivers to the webhooks of every workspace).
TARGETS_KEPT = 4096


@functools.lru_cache(maxsize=TARGETS_KEPT)
def _checked_target(url: str, allow_loopback: bool) -> url_guard.WebhookTarget:
    """``url`` parsed and, when its host is an IP literal, that address vetted (AddressRefused
    when forbidden). Both are functions of the URL and the setting alone, so each URL is done
    once per process, not once per attempt (12 us of the 180 us of a worker's CPU per delivery
    in a backlog); a refusal raises and is not kept."""
    target = url_guard.parse_url(url)
    if target.ip_literal:
        url_guard.check_addresses([target.host], scheme=target.scheme, allow_loopback=allow_loopback)
    return target


async def post(job: DeliveryJob) -> AttemptOutcome:
    """Send one signed attempt; every failure becomes an outcome, never an exception."""
    settings = get_settings()
    timeout = settings.webhook_timeout_seconds
    started_at = clock.now()
    started = time.monotonic()

    def elapsed_ms() -> int:
        return int((time.monotonic() - started) * 1000)

    headers = signing.delivery_headers(event_id=str(job.event_id), timestamp=int(started_at.timestamp()),
                                       body=job.body, secrets=job.secrets)
    try:
        target = _checked_target(job.url, settings.webhook_allow_loopback)
        if not target.ip_literal and target.scheme == "http":
            # Plain http only to loopback (development): check where the name points first.
            addresses = await url_guard.resolve(target.host, target.port)
            url_guard.check_addresses(addresses, scheme="http", allow_loopback=settings.webhook_allow_loopback)
        async with _session().post(
            target.normalized_url, data=job.body, headers=headers, allow_redirects=False,
            timeout=aiohttp.ClientTimeout(total=timeout),
        ) as response:
            raw = await _read_prefix(response)
            status = response.status
    except Exception as exc:  # noqa: BLE001 - every failure is an attempt outcome
        if isinstance(exc, ValidationFailed):
            error = f"refused: {exc.message}"
        else:
            error = _describe(exc, timeout)
        return AttemptOutcome(started_at=started_at, duration_ms=elapsed_ms(), error=error)
    refusal = None
    if not 200 <= status < 300:
        refusal = f"HTTP {status}" + (" (redirects are not followed)" if 300 <= status < 400 else "")
    return AttemptOutcome(started_at=started_at, duration_ms=elapsed_ms(), response_status=status,
                          response_body=truncate_body(raw), error=refusal)
