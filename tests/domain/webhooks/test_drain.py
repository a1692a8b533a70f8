"""Draining a webhook: batches within the concurrency limit, one webhook-id per event, retries
on the schedule, at least once across a crash, and the slots it held go to retries parked behind it."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from datetime import timedelta

from actors.webhooks import endpoint_slots
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain.webhooks import drain, schedule, sender
from domain.webhooks.catalogue import LEASE_MARGIN, NO_OUTCOME
from domain.webhooks.delivery import AttemptOutcome, DeliveryJob
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery
from tests.support.callers import make_principal
from tests.support.webhooks import create_webhook, fan_out_without_enqueueing, verify, workspace_of


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


async def _backlog(principal, count: int) -> list[WebhookDelivery]:
    return [await fan_out_without_enqueueing(workspace_of(principal)) for _ in range(count)]


async def test_a_backlog_is_sent_in_batches_that_fill_the_concurrency_limit_and_never_exceed_it(
        database, broker, receiver, frozen_clock):
    # Given 10 pending deliveries to one webhook whose receiver takes a moment to answer
    admin = await make_principal()
    webhook, secret = await create_webhook(admin, receiver.url())
    backlog = await _backlog(admin, 10)
    receiver.delay_seconds = 0.05
    # When two drains of the webhook run at once, each asking for as many slots as the limit
    limit = get_settings().webhook_concurrency_per_endpoint
    slots = endpoint_slots(broker)
    results = await asyncio.gather(*(drain.drain(webhook_id=webhook.id, send=sender.post, slots=slots, limit=limit)
                                     for _ in range(2)))
    # Then never more requests than the limit were in flight together, and batches filled it
    assert 1 < limit < 10 and receiver.max_in_flight == limit
    assert sum(result.sent for result in results) == 10 and not any(r.to_enqueue for r in results)
    # And each event arrived once, signed, under its own event id as webhook-id
    assert Counter(r.event_id for r in receiver.received) == Counter(str(d.event_id) for d in backlog)  # type: ignore[attr-defined]
    for request in receiver.received:
        verify(secret, request)
    # And each delivery succeeded at its first attempt, whose outcome is recorded
    async with unit_of_work():
        assert {d.status for d in await WebhookDelivery.filter(webhook_id=webhook.id)} == {"succeeded"}
        attempts = await WebhookAttempt.filter(delivery__webhook_id=webhook.id)
    assert len(attempts) == 10 and all(a.succeeded and a.attempt_number == 1 and a.response_status == 200
                                       for a in attempts)


async def test_a_failed_attempt_in_a_batch_is_retried_on_the_schedule_under_the_same_webhook_id(
        database, broker, receiver, frozen_clock):
    # Given 3 pending deliveries, and a receiver that fails the first request it gets
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    await _backlog(admin, 3)
    receiver.script = [500]
    # When the webhook is drained
    result = await drain.drain(webhook_id=webhook.id, send=sender.post, slots=endpoint_slots(broker), limit=4)
    # Then the two others succeeded, and the failed one waits for its retry, due on the schedule
    failed_event = receiver.received[0].event_id
    async with unit_of_work():
        failed = await WebhookDelivery.get(event_id=failed_event, webhook_id=webhook.id)
        assert await WebhookDelivery.filter(webhook_id=webhook.id, status="succeeded").count() == 2
    assert failed.status == "retrying" and failed.attempt_count == 1 and failed.last_response_status == 500
    waited = failed.next_attempt_at - frozen_clock.now()  # type: ignore[operator]
    assert (1 - schedule.JITTER) * schedule.FIRST_RETRY_INTERVAL <= waited <= (
        1 + schedule.JITTER) * schedule.FIRST_RETRY_INTERVAL
    # And its retry message (the one-attempt path, attempt 2) is handed to the caller with that delay
    [retry] = result.to_enqueue
    assert (retry.due.delivery_id, retry.due.attempt) == (failed.id, 2)
    assert abs(retry.delay_ms - waited.total_seconds() * 1000) < 1000  # type: ignore[operator]
    # And a later drain does not take the retry early: pending deliveries only
    again = await drain.drain(webhook_id=webhook.id, send=sender.post, slots=endpoint_slots(broker), limit=4)
    assert again.sent == 0 and len(receiver.received) == 3


async def test_a_worker_that_dies_mid_batch_leaves_its_deliveries_to_be_sent_again_after_the_lease(
        database, broker, receiver, frozen_clock):
    # Given a worker that claimed a batch of 3, sent two of them, and died before recording anything
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    backlog = await _backlog(admin, 3)
    jobs = await drain.claim_batch(webhook_id=webhook.id, limit=3)
    assert len(jobs) == 3
    for job in jobs[:2]:
        await sender.post(job)
    # Then while the lease runs, nothing of it is claimed again
    nothing = await drain.drain(webhook_id=webhook.id, send=sender.post, slots=endpoint_slots(broker), limit=3)
    assert nothing.sent == 0
    # When the lease has run out and the webhook is drained
    frozen_clock.advance(timedelta(seconds=get_settings().webhook_timeout_seconds) + LEASE_MARGIN
                         + timedelta(seconds=1))
    result = await drain.drain(webhook_id=webhook.id, send=sender.post, slots=endpoint_slots(broker), limit=3)
    # Then every delivery was sent again (at least once in all), under the same webhook-id as before
    assert result.sent == 3
    seen = Counter(r.event_id for r in receiver.received)
    assert seen == Counter({str(job.event_id): 2 for job in jobs[:2]} | {str(jobs[2].event_id): 1})
    assert set(seen) == {str(d.event_id) for d in backlog}  # type: ignore[attr-defined]
    # And the history shows the attempt that died without an outcome, then the second one
    async with unit_of_work():
        for delivery in await WebhookDelivery.filter(webhook_id=webhook.id):
            assert (delivery.status, delivery.attempt_count) == ("succeeded", 2)
            history = await WebhookAttempt.filter(delivery_id=delivery.id).order_by("attempt_number")
            assert [(a.attempt_number, a.error, a.succeeded) for a in history] == [
                (1, NO_OUTCOME, False), (2, None, True)]


async def test_a_failure_gives_back_what_the_drain_claimed_ahead_and_the_rest_is_sent_after_it(
        database, broker, receiver, frozen_clock):
    # Given 6 pending deliveries drained through one slot (the drain claims 4 ahead of it), and
    # a receiver that fails the first request it gets
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    await _backlog(admin, 6)
    receiver.script = [500]
    # When the webhook is drained
    result = await drain.drain(webhook_id=webhook.id, send=sender.post, slots=endpoint_slots(broker), limit=1)
    # Then one request at a time went out, the failed one waits for its retry and the others succeeded
    assert receiver.max_in_flight == 1 and len(receiver.received) == 6 and result.sent == 6
    [retry] = result.to_enqueue
    async with unit_of_work():
        statuses = Counter(await WebhookDelivery.filter(webhook_id=webhook.id).values_list("status", flat=True))
        attempts = await WebhookAttempt.filter(delivery__webhook_id=webhook.id)
    assert statuses == Counter({"succeeded": 5, "retrying": 1})
    # And the deliveries claimed ahead of the failure were given back unsent: one attempt each, the
    # one that was made, and none left without an outcome
    assert sorted((a.attempt_number, a.error is None) for a in attempts) == [(1, False)] + [(1, True)] * 5
    assert all(a.error != NO_OUTCOME for a in attempts)


async def test_a_failure_that_disables_the_webhook_sends_nothing_claimed_ahead(
        database, broker, receiver, frozen_clock):
    # Given a webhook one failure away from being disabled, 5 pending deliveries, a dead receiver
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    backlog = await _backlog(admin, 5)
    async with unit_of_work():
        await Webhook.filter(id=webhook.id).update(consecutive_failures=schedule.DISABLE_AFTER_CONSECUTIVE_FAILURES - 1)
    receiver.default = 503
    # When the webhook is drained through one slot (4 claimed ahead of it)
    result = await drain.drain(webhook_id=webhook.id, send=sender.post, slots=endpoint_slots(broker), limit=1)
    # Then the one failure disabled it, and nothing else was sent
    assert len(receiver.received) == 1 and result.sent == 1 and result.to_enqueue == []
    async with unit_of_work():
        assert (await Webhook.get(id=webhook.id)).status == "disabled"
        deliveries = await WebhookDelivery.filter(webhook_id=webhook.id)
        assert await WebhookAttempt.filter(delivery__webhook_id=webhook.id).count() == 1
    # And every other delivery failed "webhook disabled" without an attempt (replay recovers them)
    others = [d for d in deliveries if d.event_id != uuid.UUID(receiver.received[0].event_id)]
    assert len(deliveries) == len(backlog) and len(others) == 4
    assert {(d.status, d.last_error, d.attempt_count) for d in others} == {("failed", "webhook disabled", 0)}
