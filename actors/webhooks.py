"""Webhook jobs, all on the ``webhooks`` queue (give it its own worker pool: docs/webhooks.md).

- ``webhooks.fan_out`` (outbox command of :func:`domain.webhooks.emit_event`): create the
  deliveries of an event, then enqueue them.
- ``webhooks.enqueue_due`` (outbox command of a replay): enqueue a webhook's due deliveries.
- ``webhooks.deliver(delivery_id, attempt)``: one signed HTTP attempt. Claim (lease) in one
  short transaction, POST outside any transaction, record in another; the retry is a delayed
  broker message (``send_with_options(delay=...)``). Over its webhook's concurrency limit (a
  Redis semaphore, :class:`EndpointSlots`) the delivery is parked instead of holding a worker
  thread; a finishing attempt hands the freed slot to the longest-parked delivery.
- :func:`sweep_overdue_deliveries` (scheduler): re-enqueue deliveries whose message was lost.

Outbound requests go through :class:`GuardedResolver`, which vets every address a host
resolves to (SSRF guard) and hands the connector only those addresses (no DNS rebinding).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
import uuid
from typing import Any

import aiohttp
import dramatiq
from aiohttp.abc import AbstractResolver, ResolveResult
from aiohttp.resolver import ThreadedResolver

from custody import clock
from custody.jobs import actor, execute_command
from custody.settings import get_settings
from custody.unit_of_work import unit_of_work
from domain import webhook_schedule as schedule
from domain import webhook_signing as signing
from domain import webhook_url_guard as url_guard
from domain import webhooks
from domain.errors import ValidationFailed
from domain.webhooks import AttemptOutcome, DeliveryJob, DueDelivery
from models.outbox import Command

logger = logging.getLogger(__name__)

QUEUE = "webhooks"


# --- outbound HTTP ---------------------------------------------------------------------------


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


#: One client session per event loop (a worker process has one loop; tests share theirs).
_sessions: dict[asyncio.AbstractEventLoop, aiohttp.ClientSession] = {}


def _session() -> aiohttp.ClientSession:
    loop = asyncio.get_running_loop()
    session = _sessions.get(loop)
    if session is None or session.closed:
        connector = aiohttp.TCPConnector(resolver=GuardedResolver(), use_dns_cache=False, limit=0,
                                         enable_cleanup_closed=True)
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
    while size < webhooks.RESPONSE_BODY_LIMIT:
        chunk = await response.content.read(webhooks.RESPONSE_BODY_LIMIT - size)
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
        return f"connection failed: {exc.os_error.strerror or exc.os_error}"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "connection closed by the receiver before a response"
    if isinstance(exc, aiohttp.ClientError):
        return f"HTTP client error: {type(exc).__name__}: {exc}"
    return f"{type(exc).__name__}: {exc}"


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
        target = url_guard.parse_url(job.url)
        if target.ip_literal:
            url_guard.check_addresses([target.host], scheme=target.scheme,
                                      allow_loopback=settings.webhook_allow_loopback)
        elif target.scheme == "http":
            # Plain http only to loopback (development): check where the name points first.
            addresses = await url_guard.resolve(target.host, target.port)
            url_guard.check_addresses(addresses, scheme="http", allow_loopback=settings.webhook_allow_loopback)
        async with _session().post(
            target.url, data=job.body, headers=headers, allow_redirects=False,
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
    error = None
    if not 200 <= status < 300:
        error = f"HTTP {status}" + (" (redirects are not followed)" if 300 <= status < 400 else "")
    return AttemptOutcome(started_at=started_at, duration_ms=elapsed_ms(), response_status=status,
                          response_body=webhooks.truncate_body(raw), error=error)


# --- bounded concurrency per webhook -------------------------------------------------------------


class EndpointSlots:
    """At most N attempts in flight per webhook, across every worker process.

    A Redis sorted set per webhook holds one member per attempt in flight, scored by when its
    slot expires (Redis server time, so worker clocks do not matter). Taking a slot first drops
    expired members, which frees the slot of a worker that died mid-attempt. A refused take also
    sets the webhook's "parked" marker (5 minutes), so that finishing attempts look for parked
    deliveries to wake only when there may be some. Keys live in the broker's namespace
    (``<namespace>:webhook-slots:<webhook id>`` and ``...:parked``).
    """

    PARKED_MARKER_MS = 300_000
    _NOW = """
    local now = redis.call('TIME')
    local now_ms = now[1] * 1000 + math.floor(now[2] / 1000)
    redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms)
    """
    _TAKE = _NOW + """
    if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
        redis.call('ZADD', KEYS[1], now_ms + tonumber(ARGV[3]), ARGV[1])
        redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
        return 1
    end
    redis.call('SET', KEYS[2], '1', 'PX', tonumber(ARGV[4]))
    return 0
    """
    _WAKEABLE = _NOW + """
    if redis.call('EXISTS', KEYS[2]) == 0 then
        return 0
    end
    return tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1])
    """

    def __init__(self, broker: dramatiq.Broker) -> None:
        self._client = broker.client  # type: ignore[attr-defined]
        self._prefix = f"{broker.namespace}:webhook-slots:"  # type: ignore[attr-defined]
        self._take = self._client.register_script(self._TAKE)
        self._wakeable = self._client.register_script(self._WAKEABLE)

    def _keys(self, webhook_id: uuid.UUID) -> list[str]:
        return [f"{self._prefix}{webhook_id}", f"{self._prefix}{webhook_id}:parked"]

    async def take(self, webhook_id: uuid.UUID, delivery_id: uuid.UUID) -> bool:
        """Take a slot for the delivery's attempt; False when the webhook is at its limit."""
        settings = get_settings()
        ttl_ms = int((settings.webhook_timeout_seconds + webhooks.LEASE_MARGIN.total_seconds()) * 1000)
        taken = await asyncio.to_thread(
            self._take, keys=self._keys(webhook_id),
            args=[str(delivery_id), settings.webhook_concurrency_per_endpoint, ttl_ms, self.PARKED_MARKER_MS])
        return bool(taken)

    async def release(self, webhook_id: uuid.UUID, delivery_id: uuid.UUID) -> None:
        await asyncio.to_thread(self._client.zrem, self._keys(webhook_id)[0], str(delivery_id))

    async def wakeable(self, webhook_id: uuid.UUID) -> int:
        """Free slots, when deliveries of the webhook may be parked; else 0."""
        limit = get_settings().webhook_concurrency_per_endpoint
        return int(await asyncio.to_thread(self._wakeable, keys=self._keys(webhook_id), args=[limit]))

    async def mark_parked(self, webhook_id: uuid.UUID) -> None:
        await asyncio.to_thread(self._client.set, self._keys(webhook_id)[1], "1", px=self.PARKED_MARKER_MS)


_slots: dict[int, EndpointSlots] = {}


def _endpoint_slots() -> EndpointSlots:
    broker = dramatiq.get_broker()
    slots = _slots.get(id(broker))
    if slots is None:
        slots = _slots[id(broker)] = EndpointSlots(broker)
    return slots


async def _wake_parked(webhook_id: uuid.UUID) -> None:
    """Hand free slots of the webhook to its longest-parked deliveries."""
    slots = _endpoint_slots()
    free = await slots.wakeable(webhook_id)
    if free > 0:
        async with unit_of_work():
            woken = await webhooks.hand_off(webhook_id=webhook_id, free_slots=free)
        if woken:
            await slots.mark_parked(webhook_id)  # more may wait behind them
            await enqueue(woken)


# --- enqueueing ------------------------------------------------------------------------------


def _deliver_actor(broker: dramatiq.Broker | None = None) -> dramatiq.Actor:
    return (broker or dramatiq.get_broker()).get_actor(webhooks.DELIVER)


async def enqueue(deliveries: list[DueDelivery], *, delay_ms: int | None = None,
                  broker: dramatiq.Broker | None = None) -> int:
    """Send one ``webhooks.deliver`` message per delivery. Failures are logged, not raised: the
    deliveries stay due in PostgreSQL and the sweep re-enqueues them."""
    if not deliveries:
        return 0
    target = _deliver_actor(broker)

    def send_all() -> int:
        sent = 0
        for due in deliveries:
            try:
                target.send_with_options(args=(str(due.delivery_id), due.attempt), delay=delay_ms)
                sent += 1
            except Exception as exc:  # noqa: BLE001 - the sweep covers a broker outage
                logger.warning("webhooks: could not enqueue delivery %s: %s", due.delivery_id, type(exc).__name__)
        return sent

    # The Redis client is blocking; keep the event loop free.
    return await asyncio.to_thread(send_all)


async def _run_command_then_enqueue(command_id: str, handler: Any) -> None:
    """Run an outbox command's handler once, then enqueue what it returned (after commit)."""
    collected: list[DueDelivery] = []

    async def run(*, command: Command, **payload: Any) -> None:
        collected.extend(await handler(**payload))

    if await execute_command(command_id, run):
        await enqueue(collected)


# --- actors ------------------------------------------------------------------------------------


@actor(webhooks.FAN_OUT, queue=QUEUE)
async def fan_out(command_id: str) -> None:
    """Create one delivery per subscribed webhook of the event, then enqueue them."""
    async def handler(*, event_id: str) -> list[DueDelivery]:
        return await webhooks.fan_out_event(event_id=uuid.UUID(event_id))

    await _run_command_then_enqueue(command_id, handler)


@actor(webhooks.ENQUEUE_DUE, queue=QUEUE)
async def enqueue_due(command_id: str) -> None:
    """Enqueue every due delivery of a webhook (after a replay)."""
    async def handler(*, webhook_id: str) -> list[DueDelivery]:
        return await webhooks.due_deliveries_of(webhook_id=uuid.UUID(webhook_id))

    await _run_command_then_enqueue(command_id, handler)


def _ms_until(moment: Any) -> int:
    return max(int((moment - clock.now()).total_seconds() * 1000), 0)


# The request itself is bounded by webhook_timeout_seconds; this only stops a wedged actor.
@actor(webhooks.DELIVER, queue=QUEUE, max_retries=5, time_limit=120_000)
async def deliver(delivery_id: str, attempt: int | None = None) -> None:
    """Make attempt ``attempt`` of a delivery if it is still the next one and due (idempotent)."""
    slots = _endpoint_slots()
    taken: list[tuple[uuid.UUID, uuid.UUID]] = []

    async def take_slot(webhook_id: uuid.UUID, claimed: uuid.UUID) -> bool:
        if await slots.take(webhook_id, claimed):
            taken.append((webhook_id, claimed))
            return True
        return False

    try:
        async with unit_of_work():
            claim = await webhooks.claim_delivery(delivery_id=uuid.UUID(delivery_id), attempt=attempt,
                                                  take_slot=take_slot)
    except Exception:
        for webhook_id, claimed in taken:  # the claim did not commit: give the slot back now
            await slots.release(webhook_id, claimed)
        raise
    if claim.kind == "not_due" and attempt is not None:
        # Early (a clock ahead of the sender's): come back when due rather than send early.
        await enqueue([DueDelivery(uuid.UUID(delivery_id), attempt)], delay_ms=_ms_until(claim.due_at))
        return
    if claim.kind == "parked":
        # The slot this delivery waited for may have been freed while it parked.
        assert claim.webhook_id is not None
        await _wake_parked(claim.webhook_id)
        return
    if claim.kind != "send":
        logger.debug("webhooks: delivery %s: %s %s", delivery_id, claim.kind, claim.reason)
        return
    job = claim.job
    assert job is not None
    try:
        outcome = await post(job)
        async with unit_of_work():
            recorded = await webhooks.record_attempt(job=job, outcome=outcome)
    finally:
        await slots.release(job.webhook_id, job.delivery_id)
    if recorded.retry_at is not None and recorded.retry_attempt is not None:
        await enqueue([DueDelivery(job.delivery_id, recorded.retry_attempt)], delay_ms=_ms_until(recorded.retry_at))
    if recorded.webhook_disabled:
        logger.warning("webhooks: webhook %s disabled after %d consecutive failed deliveries", job.webhook_id,
                       schedule.DISABLE_AFTER_CONSECUTIVE_FAILURES)
    else:
        await _wake_parked(job.webhook_id)


# --- the scheduler's sweep ---------------------------------------------------------------------

SWEEP = "webhooks.sweep"
SWEEP_INTERVAL_SECONDS = 30


async def sweep_overdue_deliveries(*, broker: dramatiq.Broker | None = None) -> int:
    """Re-enqueue deliveries whose message was lost (scheduler job; leader only)."""
    async with unit_of_work():
        due = await webhooks.overdue_deliveries()
    if due:
        logger.info("webhooks sweep: re-enqueueing %d overdue deliveries", len(due))
    return await enqueue(due, broker=broker)
