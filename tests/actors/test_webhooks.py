"""The webhook actors (actors/webhooks.py): the delivery actor under redelivery, and the sweep
that re-enqueues a delivery whose broker message was lost."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from actors.webhooks import sweep_overdue_deliveries
from core.unit_of_work import unit_of_work
from domain.webhooks import catalogue, events, management
from models.webhooks import WebhookAttempt, WebhookDelivery
from tests.support.callers import make_principal
from tests.support.webhooks import (
    attempts_of,
    attempts_reach,
    create_webhook,
    delivery_of,
    emit,
    fan_out_without_enqueueing,
    workspace_of,
)
from tests.support.worker import wait_for


async def test_the_delivery_actor_is_idempotent(database, worker, broker, receiver, frozen_clock):
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    (event,) = await emit(workspace_of(admin))
    await worker.drain()
    delivery = await delivery_of(event, webhook)
    assert delivery.status == "succeeded" and len(receiver.received) == 1
    # When the broker delivers the message again (at least once), with any attempt number
    actor = broker.get_actor(catalogue.DELIVER)
    for attempt in (1, 2, None):
        await asyncio.to_thread(actor.send, str(delivery.id), attempt)
    await worker.drain()
    # Then nothing is sent again
    assert len(receiver.received) == 1 and await WebhookAttempt.filter(delivery_id=delivery.id).count() == 1
    # And a retrying delivery is neither sent early nor twice for the same attempt
    receiver.default = 500
    (failing,) = await emit(workspace_of(admin))
    retrying = await delivery_of(failing, webhook)
    await wait_for(attempts_reach(retrying.id, 1))
    retrying = await WebhookDelivery.get(id=retrying.id)
    await asyncio.to_thread(actor.send, str(retrying.id), 2)  # early
    await asyncio.to_thread(actor.send, str(retrying.id), 1)  # stale
    await worker.settle()
    assert await attempts_of(retrying.id) == 1 and len(receiver.received) == 2
    frozen_clock.set(retrying.next_attempt_at)
    for _ in range(3):  # the due message, duplicated
        await asyncio.to_thread(actor.send, str(retrying.id), 2)
    await worker.settle()
    assert await attempts_of(retrying.id) == 2 and len(receiver.received) == 3


async def _webhook_of_a_new_workspace(url: str):
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, url)
    return workspace_of(admin), webhook


async def test_a_lost_retry_is_re_enqueued_once_overdue(database, broker, worker, receiver, frozen_clock):
    receiver.script = [500]
    workspace_id, webhook = await _webhook_of_a_new_workspace(receiver.url())
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
    await worker.settle()
    delivery = await WebhookDelivery.get(id=delivery.id)
    assert delivery.status == "succeeded" and delivery.attempt_count == 2 and len(receiver.received) == 2


async def test_a_new_delivery_whose_message_was_lost_is_rescued(database, broker, worker, receiver, frozen_clock):
    workspace_id, webhook = await _webhook_of_a_new_workspace(receiver.url())
    delivery = await fan_out_without_enqueueing(workspace_id)
    assert await sweep_overdue_deliveries(broker=broker) == 0
    frozen_clock.advance(catalogue.SWEEP_GRACE + timedelta(seconds=1))
    assert await sweep_overdue_deliveries(broker=broker) == 1
    await worker.settle()
    assert (await WebhookDelivery.get(id=delivery.id)).status == "succeeded"


async def test_one_sweep_rescues_every_lost_new_delivery_of_a_webhook_through_a_drain(
        database, broker, worker, receiver, frozen_clock):
    # Given new deliveries whose messages were all lost (a Redis that restarted empty, a pool
    # killed mid-drain): seven to one webhook, then, a second later, two to another; more than
    # one sweep marks (a limit of three here, 500 as shipped)
    workspace_id, webhook = await _webhook_of_a_new_workspace(receiver.url())
    other_workspace, other = await _webhook_of_a_new_workspace(receiver.url())
    lost = [await fan_out_without_enqueueing(workspace_id) for _ in range(7)]
    frozen_clock.advance(seconds=1)
    lost += [await fan_out_without_enqueueing(other_workspace) for _ in range(2)]
    frozen_clock.advance(catalogue.SWEEP_GRACE + timedelta(seconds=1))
    # When the sweep runs once: it finds three overdue, all of the first webhook
    assert await sweep_overdue_deliveries(broker=broker, limit=3) == 3
    await worker.settle()
    # Then that webhook got a drain, which sent every due delivery of it, each once; the other
    # webhook's wait for a later sweep
    statuses = {d.id: d.status for d in await WebhookDelivery.filter(id__in=[d.id for d in lost])}
    assert [statuses[d.id] for d in lost] == ["succeeded"] * 7 + ["pending"] * 2
    assert sorted(r.event_id for r in receiver.received) == sorted(str(d.event_id) for d in lost[:7])
    # And the next sweep, past the grace again, finds the rest
    frozen_clock.advance(catalogue.SWEEP_GRACE + timedelta(seconds=1))
    assert await sweep_overdue_deliveries(broker=broker, limit=3) == 2
    await worker.settle()
    assert await WebhookDelivery.filter(webhook_id=other.id, status="succeeded").count() == 2
    assert len(receiver.received) == 9 and await WebhookAttempt.all().count() == 9


async def test_a_lost_delivery_of_a_webhook_deleted_during_its_attempt_fails_at_the_sweep(
        database, broker, worker, receiver, frozen_clock):
    # Given a new delivery whose attempt was in flight (its lease running) when its webhook was
    # deleted, so the deletion left it open, and whose worker then died
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    lost = await fan_out_without_enqueueing(workspace_of(admin))
    await WebhookDelivery.filter(id=lost.id).update(lease_expires_at=frozen_clock.now() + timedelta(minutes=1))
    async with unit_of_work():
        await management.delete_webhook(principal=admin, workspace_id=workspace_of(admin), webhook_id=webhook.id)
    assert (await WebhookDelivery.get(id=lost.id)).status == "pending"
    # When its lease and the grace have run out and the sweep runs
    frozen_clock.advance(minutes=1, seconds=catalogue.SWEEP_GRACE.total_seconds() + 1)
    assert await sweep_overdue_deliveries(broker=broker) == 1
    await worker.settle()
    # Then it failed as its webhook's other open deliveries did, nothing was sent, and no later
    # sweep finds it again
    after = await WebhookDelivery.get(id=lost.id)
    assert (after.status, after.last_error) == ("failed", catalogue.ERROR_WEBHOOK_DELETED)
    assert receiver.received == []
    frozen_clock.advance(catalogue.SWEEP_GRACE + timedelta(seconds=1))
    assert await sweep_overdue_deliveries(broker=broker) == 0
