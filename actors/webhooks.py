"""Webhook jobs, all on the ``webhooks`` queue (give it its own worker pool: docs/webhooks.md).

- ``webhooks.fan_out`` (coalesced outbox command of :func:`domain.webhooks.events.emit_event`):
  create the deliveries of every pending event in batches, then drain each webhook that got some
  (:func:`domain.webhooks.drain.drain`: claim, send and record a batch per round).
- ``webhooks.drain(webhook_id)``: go on draining a webhook whose drain ran out of time.
- ``webhooks.enqueue_due`` (outbox command of a replay): drain the webhook (its replayed
  deliveries are pending), and enqueue any other due delivery.
- ``webhooks.deliver(delivery_id, attempt)``: one signed HTTP attempt
  (:func:`domain.webhooks.delivery.deliver`); the retry is a delayed message.
- ``webhooks.sweep`` (scheduler): re-enqueue deliveries whose message was lost.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any, Awaitable, Callable

import dramatiq

from core import jobs
from core.jobs import actor, execute_command
from core.outbox import Command, clear_wake
from core.settings import get_settings
from core.slots import ConcurrencySlots
from core.unit_of_work import unit_of_work
from domain.webhooks import delivery, drain, events, sender
from domain.webhooks.catalogue import (
    DELIVER,
    DRAIN,
    ENQUEUE_DUE,
    FAN_OUT,
    FAN_OUT_BATCH,
    LEASE_MARGIN,
    SWEEP,
    SWEEP_BATCH,
)
from domain.webhooks.delivery import Enqueue
from domain.webhooks.events import DueDelivery

#: Webhooks one fan-out run drains at once (each holds up to its concurrency limit of requests).
_PARALLEL_DRAINS = 4

logger = logging.getLogger(__name__)

_slots: dict[tuple[int, int], ConcurrencySlots] = {}


def endpoint_slots(broker: dramatiq.Broker | None = None) -> ConcurrencySlots:
    """The per-webhook concurrency limit, shared by every worker through the broker's Redis."""
    broker = broker or dramatiq.get_broker()
    settings = get_settings()
    slots = _slots.get((id(broker), id(settings)))
    if slots is None:
        slots = _slots[(id(broker), id(settings))] = ConcurrencySlots(
            broker.client, prefix=f"{broker.namespace}:webhook-slots:",  # type: ignore[attr-defined]  # a RedisBroker
            limit=settings.webhook_concurrency_per_endpoint,
            ttl_ms=int((settings.webhook_timeout_seconds + LEASE_MARGIN.total_seconds()) * 1000))
    return slots


async def enqueue(items: list[Enqueue], *, broker: dramatiq.Broker | None = None) -> int:
    """Send one ``webhooks.deliver`` message per item. A failure leaves the delivery due in
    PostgreSQL, where the sweep finds it."""
    return await jobs.send(DELIVER, [((str(i.due.delivery_id), i.due.attempt), i.delay_ms) for i in items],
                           broker=broker)


async def _run_command_then_enqueue(command_id: str,
                                    handler: Callable[..., Awaitable[list[DueDelivery]]]) -> None:
    """Run an outbox command's handler once, then enqueue what it returned (after commit)."""
    collected: list[DueDelivery] = []

    async def run(*, command: Command, **payload: Any) -> None:
        collected.extend(await handler(**payload))

    if await execute_command(command_id, run):
        await enqueue([Enqueue(due) for due in collected])


@actor(FAN_OUT)
async def fan_out(command_id: str) -> None:
    """Fan out every pending event (in batches), then drain the webhooks that got deliveries.

    The message names one command, but the run takes all pending ones (the outbox coalesces
    their messages); a message whose command another run took finds nothing left to do.
    """
    broker = dramatiq.get_broker()
    await asyncio.to_thread(clear_wake, broker, FAN_OUT)
    batch = await events.fan_out_pending(limit=FAN_OUT_BATCH)  # one statement: atomic on its own
    if batch.full:
        # More are waiting: another worker takes the next batch while this one drains.
        await jobs.send(FAN_OUT, [((command_id,), None)])
    await drain_webhooks(batch.webhook_ids)


async def drain_webhooks(webhook_ids: set[uuid.UUID] | list[uuid.UUID]) -> None:
    """Drain each webhook (a few at once), then send the retries and hand-overs they asked for."""
    limit = asyncio.Semaphore(_PARALLEL_DRAINS)
    slots = endpoint_slots()
    settings = get_settings()

    async def one(webhook_id: uuid.UUID) -> None:
        async with limit:
            result = await drain.drain(webhook_id=webhook_id, send=sender.post, slots=slots,
                                       limit=settings.webhook_concurrency_per_endpoint)
        await enqueue(result.to_enqueue)
        if result.unfinished:
            await send_drains([webhook_id])

    await asyncio.gather(*(one(webhook_id) for webhook_id in webhook_ids))


async def send_drains(webhook_ids: list[uuid.UUID], *, broker: dramatiq.Broker | None = None) -> int:
    """Send one ``webhooks.drain`` message per webhook. A failure leaves the deliveries due in
    PostgreSQL, where the sweep finds them."""
    return await jobs.send(DRAIN, [((str(webhook_id),), None) for webhook_id in webhook_ids], broker=broker)


@actor(DRAIN, max_retries=5, time_limit=120_000)
async def drain_webhook(webhook_id: str) -> None:
    """Send a webhook's due deliveries in batches (after a drain that ran out of time)."""
    await drain_webhooks([uuid.UUID(webhook_id)])


@actor(ENQUEUE_DUE)
async def enqueue_due(command_id: str) -> None:
    """Send a webhook's due deliveries after a replay: the pending ones (all that a replay
    queues) through a drain, in batches, any other due one by its own message."""
    webhook_ids: list[uuid.UUID] = []

    async def handler(*, webhook_id: str) -> list[DueDelivery]:
        webhook_ids.append(uuid.UUID(webhook_id))
        return await events.due_deliveries_of(webhook_id=uuid.UUID(webhook_id), pending=False)

    await _run_command_then_enqueue(command_id, handler)
    await drain_webhooks(webhook_ids)


# The request itself is bounded by webhook_timeout_seconds; this only stops a wedged actor.
@actor(DELIVER, max_retries=5, time_limit=120_000)
async def deliver(delivery_id: str, attempt: int | None = None) -> None:
    """Make attempt ``attempt`` of a delivery if it is still the next one and due (idempotent)."""
    result = await delivery.deliver(delivery_id=uuid.UUID(delivery_id), attempt=attempt, send=sender.post,
                                    slots=endpoint_slots())
    await enqueue(result.to_enqueue)


async def sweep_overdue_deliveries(*, broker: dramatiq.Broker | None = None, limit: int = SWEEP_BATCH) -> int:
    """Send again what deliveries whose message was lost wait for; returns how many were found.

    A pending one (a first attempt or a replay) of an active webhook gets a drain of its
    webhook, one per webhook: the drain sends every due pending delivery of it at the drain's
    pace, through the webhook's concurrency slots, the ones beyond this sweep's ``limit`` too.
    Sent one by one, as before, a Redis that restarted empty left its backlog to be sent
    ``limit`` deliveries per sweep (500 per 30 s: bench/chaos.py waited minutes for 4,600 of
    them). Any other gets its own message again (delivery.OverdueDelivery says which)."""
    async with unit_of_work():
        due = await delivery.overdue_deliveries(limit=limit)
    drained = sorted({item.webhook_id for item in due if item.drainable})
    one_by_one = [Enqueue(item) for item in due if not item.drainable]
    if due:
        logger.info("webhooks sweep: %d overdue deliveries: a drain for %d webhook(s), %d sent again one by one",
                    len(due), len(drained), len(one_by_one))
    await send_drains(drained, broker=broker)
    await enqueue(one_by_one, broker=broker)
    return len(due)


@actor(SWEEP, max_retries=0)
async def sweep() -> None:
    """Re-enqueue deliveries whose message was lost (enqueued by the scheduler)."""
    await sweep_overdue_deliveries()
