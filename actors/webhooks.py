"""Webhook jobs, all on the ``webhooks`` queue (give it its own worker pool: docs/webhooks.md).

- ``webhooks.fan_out`` (outbox command of :func:`domain.webhooks.events.emit_event`): create the
  deliveries of an event, then enqueue them.
- ``webhooks.enqueue_due`` (outbox command of a replay): enqueue a webhook's due deliveries.
- ``webhooks.deliver(delivery_id, attempt)``: one signed HTTP attempt
  (:func:`domain.webhooks.delivery.deliver`); the retry is a delayed message.
- ``webhooks.sweep`` (scheduler): re-enqueue deliveries whose message was lost.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any, Awaitable, Callable

import dramatiq

from core import jobs
from core.jobs import actor, execute_command
from core.outbox import Command
from core.settings import get_settings
from core.slots import ConcurrencySlots
from core.unit_of_work import unit_of_work
from domain.webhooks import delivery, events, sender
from domain.webhooks.catalogue import DELIVER, ENQUEUE_DUE, FAN_OUT, LEASE_MARGIN, SWEEP
from domain.webhooks.delivery import Enqueue
from domain.webhooks.events import DueDelivery

logger = logging.getLogger(__name__)

_slots: dict[tuple[int, int], ConcurrencySlots] = {}


def endpoint_slots(broker: dramatiq.Broker | None = None) -> ConcurrencySlots:
    """The per-webhook concurrency limit, shared by every worker through the broker's Redis."""
    broker = broker or dramatiq.get_broker()
    settings = get_settings()
    slots = _slots.get((id(broker), id(settings)))
    if slots is None:
        slots = _slots[(id(broker), id(settings))] = ConcurrencySlots(
            broker.client, prefix=f"{broker.namespace}:webhook-slots:",  # type: ignore[attr-defined]
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
    """Create one delivery per subscribed webhook of the event, then enqueue them."""
    async def handler(*, event_id: str) -> list[DueDelivery]:
        return await events.fan_out_event(event_id=uuid.UUID(event_id))

    await _run_command_then_enqueue(command_id, handler)


@actor(ENQUEUE_DUE)
async def enqueue_due(command_id: str) -> None:
    """Enqueue every due delivery of a webhook (after a replay)."""
    async def handler(*, webhook_id: str) -> list[DueDelivery]:
        return await events.due_deliveries_of(webhook_id=uuid.UUID(webhook_id))

    await _run_command_then_enqueue(command_id, handler)


# The request itself is bounded by webhook_timeout_seconds; this only stops a wedged actor.
@actor(DELIVER, max_retries=5, time_limit=120_000)
async def deliver(delivery_id: str, attempt: int | None = None) -> None:
    """Make attempt ``attempt`` of a delivery if it is still the next one and due (idempotent)."""
    result = await delivery.deliver(delivery_id=uuid.UUID(delivery_id), attempt=attempt, send=sender.post,
                                    slots=endpoint_slots())
    await enqueue(result.to_enqueue)


async def sweep_overdue_deliveries(*, broker: dramatiq.Broker | None = None) -> int:
    """Re-enqueue deliveries whose message was lost; returns how many."""
    async with unit_of_work():
        due = await delivery.overdue_deliveries()
    if due:
        logger.info("webhooks sweep: re-enqueueing %d overdue deliveries", len(due))
    return await enqueue([Enqueue(item) for item in due], broker=broker)


@actor(SWEEP, max_retries=0)
async def sweep() -> None:
    """Re-enqueue deliveries whose message was lost (enqueued by the scheduler)."""
    await sweep_overdue_deliveries()
