"""Draining a webhook: the slots it held go to retries that parked behind it."""

from __future__ import annotations

from datetime import timedelta

from actors.webhooks import endpoint_slots
from core.unit_of_work import unit_of_work
from domain.webhooks import drain
from domain.webhooks.delivery import AttemptOutcome, DeliveryJob
from models.webhooks import WebhookDelivery
from tests.support.callers import make_principal
from tests.support.webhooks import create_webhook, fan_out_without_enqueueing, workspace_of


async def _never_sent(job: DeliveryJob) -> AttemptOutcome:
    raise AssertionError(f"nothing is due to be sent, yet {job.delivery_id} was")


async def test_a_retry_parked_while_the_drain_held_every_slot_is_woken_when_it_ends(
        database, broker, receiver, frozen_clock):
    # Given a retry that parked behind the webhook's concurrency limit while a drain held every
    # slot, and whose Redis "parked" mark the drain then cleared (it only saw no pending delivery)
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    parked = await fan_out_without_enqueueing(workspace_of(admin))
    await WebhookDelivery.filter(id=parked.id).update(
        status="retrying", attempt_count=1, next_attempt_at=frozen_clock.now() - timedelta(seconds=1),
        parked_at=frozen_clock.now())
    slots = endpoint_slots(broker)
    await slots.clear_parked(webhook.id)
    # When a drain of the webhook runs and ends
    result = await drain.drain(webhook_id=webhook.id, send=_never_sent, slots=slots, limit=4)
    # Then the parked retry is handed a freed slot: its message is among those to enqueue
    assert [(item.due.delivery_id, item.due.attempt) for item in result.to_enqueue] == [(parked.id, 2)]
    async with unit_of_work():
        assert (await WebhookDelivery.get(id=parked.id)).parked_at is None
