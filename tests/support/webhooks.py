"""Helpers of the webhook tests: webhooks, events, their deliveries and attempts.

Retries use the broker's delay (seconds to hours of real time), so tests of the schedule move
the FrozenClock to the due time and deliver the message the broker would release then
(:func:`release_retry`). The receiver and its fixtures are in tests/support/receiver.py.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Sequence

import dramatiq
from standardwebhooks.webhooks import Webhook as StandardWebhook
from tortoise.expressions import Q

from core.outbox import Command, write_unsaved
from core.unit_of_work import unit_of_work
from domain.auth import Principal
from domain.webhooks import catalogue, events, management
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent
from tests.support.receiver import Received
from tests.support.worker import wait_for


def workspace_of(principal: Principal) -> Any:
    """The (only) workspace of a principal made by tests.support.callers.make_principal."""
    return next(iter(principal.accesses))


async def create_webhook(principal: Principal, url: str,
                         event_types: Sequence[str] = ("transaction.*",)) -> tuple[Webhook, str]:
    """A webhook of the principal's workspace, and its secret."""
    async with unit_of_work():
        return await management.create_webhook(principal=principal, workspace_id=workspace_of(principal),
                                               url=url, event_types=list(event_types))


async def emit(workspace_id: Any, count: int = 1,
               event_type: str = catalogue.TRANSACTION_CREATED) -> list[WebhookEvent]:
    """``count`` events, each in its own unit of work (as the service emits them)."""
    emitted = []
    for index in range(count):
        async with unit_of_work():
            emitted.append(await events.emit_event(
                workspace_id=workspace_id, event_type=event_type,
                data={"transaction_id": f"tx-{index}", "amount": "1000", "status": "pending"}))
    return emitted


async def delivery_of(event: WebhookEvent, webhook: Webhook) -> WebhookDelivery:
    """The delivery of ``event`` to ``webhook``, once the fan-out has created it."""
    return await wait_for(lambda: WebhookDelivery.get_or_none(event_id=event.id, webhook_id=webhook.id))


def verify(secret: str, request: Received) -> dict:
    """What an independent receiver does: the standardwebhooks package checks the signature."""
    return StandardWebhook(secret).verify(request.body, request.headers)


async def attempts_of(delivery_id: Any) -> int:
    """Attempts of the delivery whose outcome is recorded (a claimed attempt counts once it is out)."""
    return await WebhookAttempt.filter(Q(error__isnull=True) | Q(error__not=catalogue.NO_OUTCOME),
                                       delivery_id=delivery_id).count()


def attempts_reach(delivery_id: Any, number: int) -> Callable[[], Awaitable[bool]]:
    """A wait_for predicate: the delivery has made and recorded ``number`` attempts."""
    async def reached() -> bool:
        return await attempts_of(delivery_id) >= number
    return reached


async def release_retry(broker: dramatiq.Broker, delivery: WebhookDelivery) -> None:
    """Deliver the delayed retry message now, as the broker does when its delay has passed."""
    actor = broker.get_actor(catalogue.DELIVER)
    await asyncio.to_thread(actor.send, str(delivery.id), delivery.attempt_count + 1)


async def fan_out_without_enqueueing(workspace_id: Any) -> WebhookDelivery:
    """An event whose fan-out ran but whose delivery messages never reached the broker."""
    async with unit_of_work():
        event = await events.emit_event(workspace_id=workspace_id, event_type=catalogue.TRANSACTION_CREATED, data={})
        (due,) = await events.fan_out_event(event_id=event.id)
        # The fan-out ran here, so its command is done, as a worker's fan-out leaves it: otherwise
        # the test's running worker could take the command after commit and drain the webhook,
        # delivering what the test means to be lost (a race the tests lost now and then).
        await write_unsaved()
        await Command.filter(actor_name=catalogue.FAN_OUT, status="pending").update(status="done")
    return await WebhookDelivery.get(id=due.delivery_id)
