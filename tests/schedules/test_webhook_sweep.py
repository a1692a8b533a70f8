"""The scheduler's webhook sweep: a delivery whose broker message was lost is re-enqueued."""

from __future__ import annotations

from datetime import timedelta

from actors.webhooks import sweep_overdue_deliveries
from domain.webhooks.catalogue import SWEEP
from core.unit_of_work import unit_of_work
from domain.webhooks import catalogue, delivery, events, management
from models.webhooks import WebhookDelivery
from schedules.main import Scheduler
from tests.webhook_receiver import make_principal, receiver, settle, wait_for  # noqa: F401 - fixture


async def _setup(receiver_url):
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    async with unit_of_work():
        webhook, _ = await management.create_webhook(principal=admin, workspace_id=workspace_id, url=receiver_url,
                                                   event_types=["transaction.*"])
    return workspace_id, webhook


async def _fan_out_without_enqueueing(workspace_id) -> WebhookDelivery:
    """An event whose fan-out ran but whose delivery messages never reached the broker."""
    async with unit_of_work():
        event = await events.emit_event(workspace_id=workspace_id, event_type="transaction.created", data={})
        (due,) = await events.fan_out_event(event_id=event.id)
    return await WebhookDelivery.get(id=due.delivery_id)


async def test_a_lost_retry_is_re_enqueued_once_overdue(database, broker, worker, receiver, frozen_clock,
                                                         redis_client):
    receiver.script = [500]
    workspace_id, webhook = await _setup(receiver.url())
    async with unit_of_work():
        await events.emit_event(workspace_id=workspace_id, event_type="transaction.created", data={})

    async def retrying():
        return await WebhookDelivery.get_or_none(webhook_id=webhook.id, status="retrying")
    delivery = await wait_for(retrying)
    # Its delayed message is lost (we never release it). Within the bound, the sweep waits.
    frozen_clock.set(delivery.next_attempt_at + catalogue.SWEEP_GRACE - timedelta(seconds=1))
    assert await sweep_overdue_deliveries(broker=broker) == 0
    frozen_clock.advance(seconds=2)
    assert await sweep_overdue_deliveries(broker=broker) == 1
    # It is not re-enqueued again while that message is being worked on
    assert await sweep_overdue_deliveries(broker=broker) == 0
    await settle(worker, redis_client)
    delivery = await WebhookDelivery.get(id=delivery.id)
    assert delivery.status == "succeeded" and delivery.attempt_count == 2 and len(receiver.received) == 2


async def test_a_new_delivery_whose_message_was_lost_is_rescued(database, broker, worker, receiver, frozen_clock,
                                                                redis_client):
    workspace_id, webhook = await _setup(receiver.url())
    delivery = await _fan_out_without_enqueueing(workspace_id)
    assert await sweep_overdue_deliveries(broker=broker) == 0
    frozen_clock.advance(catalogue.SWEEP_GRACE + timedelta(seconds=1))
    assert await sweep_overdue_deliveries(broker=broker) == 1
    await settle(worker, redis_client)
    assert (await WebhookDelivery.get(id=delivery.id)).status == "succeeded"


async def test_parked_and_in_flight_deliveries_are_left_to_the_attempt_in_flight(database, frozen_clock, receiver):
    workspace_id, webhook = await _setup(receiver.url())
    in_flight = await _fan_out_without_enqueueing(workspace_id)
    parked = await _fan_out_without_enqueueing(workspace_id)
    now = frozen_clock.now()
    # One attempt in flight (its lease runs), one delivery parked behind the concurrency limit
    await WebhookDelivery.filter(id=in_flight.id).update(lease_expires_at=now + timedelta(minutes=5))
    await WebhookDelivery.filter(id=parked.id).update(parked_at=now)
    frozen_clock.advance(minutes=2)
    async with unit_of_work():
        assert await delivery.overdue_deliveries() == []
    # When the attempt in flight dies (its lease runs out), both are rescued
    frozen_clock.advance(minutes=4)
    async with unit_of_work():
        rescued = await delivery.overdue_deliveries()
    assert {d.delivery_id for d in rescued} == {in_flight.id, parked.id}
    assert {d.attempt for d in rescued} == {1}


def test_the_sweep_is_a_scheduled_job(settings):
    names = {job.name for job in Scheduler(settings).jobs()}
    assert SWEEP in names
