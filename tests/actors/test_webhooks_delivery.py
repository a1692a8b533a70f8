"""Webhook delivery end to end: the event outbox, the real worker, a real receiver on loopback.

Retries use the broker's delay (seconds to hours of real time), so schedule tests move the
FrozenClock to the due time and deliver the message the broker would release then.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook

from core.unit_of_work import unit_of_work
from domain.webhooks import schedule
from domain.webhooks import catalogue, events, management
from models.audit import AuditEntry
from core.outbox import Command
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent
from tests.conftest import TEST_NAMESPACE
from tests.webhook_receiver import (make_principal, receiver, second_receiver, settle, wait_for,  # noqa: F401
                                    webhook_settings)


async def _webhook(principal, url: str, event_types=("transaction.*",)) -> tuple[Webhook, str]:
    async with unit_of_work():
        return await management.create_webhook(principal=principal, workspace_id=next(iter(principal.accesses)),
                                             url=url, event_types=list(event_types))


async def _emit(workspace_id, count: int = 1, event_type: str = catalogue.TRANSACTION_CREATED) -> list[WebhookEvent]:
    emitted = []
    for index in range(count):
        async with unit_of_work():
            emitted.append(await events.emit_event(
                workspace_id=workspace_id, event_type=event_type,
                data={"transaction_id": f"tx-{index}", "amount": "1000", "status": "pending"}))
    return emitted


async def _delivery(event: WebhookEvent, webhook: Webhook) -> WebhookDelivery:
    """The delivery of ``event`` to ``webhook``, once the fan-out has created it."""
    return await wait_for(lambda: WebhookDelivery.get_or_none(event_id=event.id, webhook_id=webhook.id))


def _verify(secret: str, request) -> dict:
    """What an independent receiver does: the standardwebhooks package checks the signature."""
    return StandardWebhook(secret).verify(request.body, request.headers)


async def _attempts(delivery_id) -> int:
    return (await WebhookDelivery.get(id=delivery_id)).attempt_count


def _attempts_reach(delivery_id, number: int):
    """A wait_for predicate: the delivery has made ``number`` attempts."""
    async def reached() -> bool:
        return await _attempts(delivery_id) >= number
    return reached


async def _release(broker, delivery: WebhookDelivery) -> None:
    """Deliver the delayed retry message now, as the broker does when its delay has passed."""
    actor = broker.get_actor(catalogue.DELIVER)
    await asyncio.to_thread(actor.send, str(delivery.id), delivery.attempt_count + 1)


async def test_every_subscriber_receives_every_event_with_valid_signatures(database, worker, receiver,
                                                                           second_receiver):
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    everything, secret_all = await _webhook(admin, receiver.url("/all"))
    created_only, secret_created = await _webhook(admin, second_receiver.url("/created"),
                                                  event_types=["transaction.created"])
    # When the service emits 3 created and 2 updated events
    emitted = await _emit(workspace_id, 3) + await _emit(workspace_id, 2, catalogue.TRANSACTION_UPDATED)
    await worker.drain()
    # Then each subscriber got exactly its events, each signed and verifiable with its secret
    assert sorted(r.event_id for r in receiver.received) == sorted(str(e.id) for e in emitted)
    assert sorted(r.event_id for r in second_receiver.received) == sorted(str(e.id) for e in emitted[:3])
    for request in receiver.received:
        payload = _verify(secret_all, request)
        assert request.headers["X-Webhook-Event-Id"] == request.headers["webhook-id"] == payload["id"]
        assert request.headers["Content-Type"] == "application/json"
        assert request.headers["User-Agent"].startswith("custody-wallet-service-webhooks/")
        assert set(payload) == {"type", "id", "created_at", "workspace_id", "data"}
        assert payload["workspace_id"] == str(workspace_id) and payload["data"]["amount"] == "1000"
    for request in second_receiver.received:
        assert _verify(secret_created, request)["type"] == "transaction.created"
    # And the history says succeeded on attempt 1 with the response recorded
    delivery = await _delivery(emitted[0], everything)
    assert (delivery.status, delivery.attempt_count, delivery.last_response_status) == ("succeeded", 1, 200)
    attempt = await WebhookAttempt.get(delivery_id=delivery.id)
    assert attempt.succeeded and attempt.response_body == '{"ok":true}' and attempt.duration_ms >= 0
    assert not await WebhookDelivery.filter(webhook_id=created_only.id, event_type="transaction.updated").exists()


async def test_an_event_rolled_back_with_its_change_is_never_sent(database, worker, receiver):
    admin = await make_principal()
    await _webhook(admin, receiver.url())
    with pytest.raises(RuntimeError):
        async with unit_of_work():
            await events.emit_event(workspace_id=next(iter(admin.accesses)), event_type="transaction.created",
                                      data={"transaction_id": "tx"})
            raise RuntimeError("the change failed")
    await worker.drain()
    assert await WebhookEvent.all().count() == 0 and await Command.all().count() == 0
    assert receiver.received == []


def _delayed_messages(redis_client) -> list[dict]:
    """The delayed messages the broker holds for the webhooks queue (retries waiting for their time)."""
    raw = redis_client.hvals(f"{TEST_NAMESPACE}:webhooks.DQ.msgs")
    return [json.loads(m) for m in raw]


async def test_retries_follow_the_jittered_schedule_until_the_24_hour_window_closes(
        database, worker, broker, receiver, frozen_clock, redis_client):
    receiver.default = 500
    admin = await make_principal()
    webhook, secret = await _webhook(admin, receiver.url())
    (event,) = await _emit(next(iter(admin.accesses)))
    delivery = await _delivery(event, webhook)
    first_attempt_at = frozen_clock.now()
    await wait_for(_attempts_reach(delivery.id, 1))
    intervals = []
    while True:
        delivery = await WebhookDelivery.get(id=delivery.id)
        if delivery.status == "failed":
            break
        assert delivery.status == "retrying"
        number = delivery.attempt_count
        interval = delivery.next_attempt_at - delivery.last_attempt_at
        low, high = schedule.jitter_bounds(number)
        assert low <= interval <= high, (number, interval)
        intervals.append(interval)
        if number == 1:
            # The retry is a delayed broker message due after that interval (real time).
            (message,) = [m for m in _delayed_messages(redis_client) if m["args"][0] == str(delivery.id)]
            assert message["args"] == [str(delivery.id), 2]
            assert abs(message["options"]["eta"] - message["message_timestamp"] - interval.total_seconds() * 1000) < 2000
        if number <= 2:
            # Nothing happens before the due time: an early message is not sent
            await _release(broker, delivery)
            await settle(worker, redis_client)
            assert await _attempts(delivery.id) == number
        # When the clock reaches the due time and the broker releases the message, the next attempt runs
        frozen_clock.set(delivery.next_attempt_at)
        await _release(broker, delivery)
        await wait_for(_attempts_reach(delivery.id, number + 1))
    # Then: attempts stopped inside the 24 hour window, and the delivery is failed
    attempts = await WebhookAttempt.filter(delivery_id=delivery.id).order_by("attempt_number")
    assert 17 <= len(attempts) <= 22 and [a.attempt_number for a in attempts] == list(range(1, len(attempts) + 1))
    assert attempts[-1].started_at <= first_attempt_at + timedelta(hours=24)
    assert all(a.response_status == 500 and a.error == "HTTP 500" and not a.succeeded for a in attempts)
    assert delivery.finished_at is not None and delivery.next_attempt_at is None
    # The intervals doubled from 30 s up to the 2 hour cap
    assert intervals[0] < timedelta(seconds=37) and max(intervals) <= timedelta(hours=2, minutes=24)
    # Every attempt carried the same webhook-id, each with a valid signature for its own timestamp
    assert {r.event_id for r in receiver.received} == {str(event.id)} and len(receiver.received) == len(attempts)
    assert StandardWebhook(secret).verify(receiver.received[0].body, receiver.received[0].headers)
    # Each failed attempt counted; fewer than 50, so the webhook stays active
    webhook = await Webhook.get(id=webhook.id)
    assert webhook.status == "active" and webhook.consecutive_failures == len(attempts)


async def test_each_failure_kind_is_recorded_then_success_resets_the_count(
        database, worker, broker, receiver, frozen_clock, webhook_settings):
    webhook_settings(webhook_timeout_seconds=0.3)
    receiver.response_body = "x" * 5000 + "tail"
    receiver.script = [404, "close", "hang", 200]
    receiver.hang_seconds = 2.0
    admin = await make_principal()
    webhook, _ = await _webhook(admin, receiver.url())
    (event,) = await _emit(next(iter(admin.accesses)))
    delivery = await _delivery(event, webhook)
    for number in (1, 2, 3, 4):
        await wait_for(_attempts_reach(delivery.id, number))
        delivery = await WebhookDelivery.get(id=delivery.id)
        if delivery.status == "retrying":
            frozen_clock.set(delivery.next_attempt_at)
            await _release(broker, delivery)
    attempts = await WebhookAttempt.filter(delivery_id=delivery.id).order_by("attempt_number")
    not_found, closed, hung, ok = attempts
    # 4xx: the code and only the first 4 KB of the body are kept
    assert (not_found.response_status, not_found.error) == (404, "HTTP 404")
    assert not_found.response_body == "x" * 4096
    assert closed.response_status is None and "closed" in closed.error
    assert hung.response_status is None and hung.error.startswith("timeout") and 250 <= hung.duration_ms < 1500
    assert ok.succeeded and ok.response_status == 200
    delivery = await WebhookDelivery.get(id=delivery.id)
    assert delivery.status == "succeeded" and delivery.attempt_count == 4 and delivery.last_error is None
    webhook = await Webhook.get(id=webhook.id)
    assert webhook.consecutive_failures == 0 and webhook.last_success_at is not None
    # The delivery history lists every attempt in order
    _, history = await management.get_delivery(principal=admin, workspace_id=next(iter(admin.accesses)),
                                             webhook_id=webhook.id, delivery_id=delivery.id)
    assert [a.attempt_number for a in history] == [1, 2, 3, 4]


async def test_connection_refused_is_a_failed_attempt(database, worker, receiver):
    await receiver.stop()  # nothing listens on that port any more
    admin = await make_principal()
    webhook, _ = await _webhook(admin, receiver.url())
    (event,) = await _emit(next(iter(admin.accesses)))
    delivery = await _delivery(event, webhook)
    await wait_for(_attempts_reach(delivery.id, 1))
    attempt = await WebhookAttempt.get(delivery_id=delivery.id)
    assert attempt.response_status is None and attempt.error.startswith("connection failed")
    assert (await WebhookDelivery.get(id=delivery.id)).status == "retrying"


async def _disabled(webhook_id) -> bool:
    return (await Webhook.get(id=webhook_id)).status == "disabled"


async def test_dead_receiver_disables_the_webhook_and_reactivation_plus_replay_recovers_everything(
        database, worker, receiver, frozen_clock, redis_client):
    receiver.default = 503
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    webhook, secret = await _webhook(admin, receiver.url())
    # Given a dead receiver: 50 events, each first attempt failing
    missed = await _emit(workspace_id, 50)
    await wait_for(lambda: _disabled(webhook.id))
    # Then the 50th consecutive failure disabled the webhook, and its open deliveries failed
    webhook = await Webhook.get(id=webhook.id)
    assert webhook.consecutive_failures == 50 and webhook.disabled_reason == "50 consecutive failed deliveries"
    assert await AuditEntry.filter(action="webhook.disabled", object_id=str(webhook.id), actor_id=None).count() == 1
    await wait_for(lambda: _none_open(webhook.id))
    assert await WebhookAttempt.all().count() == len(receiver.received) == 50
    # When events occur while it is disabled, they are recorded failed and not sent
    while_disabled = await _emit(workspace_id, 3)
    await settle(worker, redis_client)
    for event in while_disabled:
        delivery = await _delivery(event, webhook)
        assert (delivery.status, delivery.last_error, delivery.attempt_count) == ("failed", "webhook disabled", 0)
    assert len(receiver.received) == 50
    # When it is reactivated, nothing missed is sent automatically
    receiver.default = 200
    async with unit_of_work():
        await management.update_webhook(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id,
                                      changes={"status": "active"})
    await settle(worker, redis_client)
    assert len(receiver.received) == 50 and (await Webhook.get(id=webhook.id)).consecutive_failures == 0
    # Then replay queues every failed delivery of the last 7 days, and each is delivered, signed
    async with unit_of_work():
        result = await management.replay(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id)
    assert result.queued == 53
    await settle(worker, redis_client)
    assert await WebhookDelivery.filter(webhook_id=webhook.id, status="succeeded").count() == 53
    redelivered = receiver.received[50:]
    assert len(redelivered) == 53
    assert {r.event_id for r in redelivered if _verify(secret, r)} == {str(e.id) for e in missed + while_disabled}
    replayed = await _delivery(while_disabled[0], webhook)
    assert replayed.replay_count == 1 and replayed.attempt_count == 1


async def _none_open(webhook_id) -> bool:
    return not await WebhookDelivery.filter(webhook_id=webhook_id, status__in=["pending", "retrying"]).exists()


async def test_replay_reaches_back_exactly_seven_days(database, worker, broker, receiver, frozen_clock,
                                                     redis_client):
    receiver.default = 500
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    webhook, _ = await _webhook(admin, receiver.url())
    (old,) = await _emit(workspace_id)
    old_delivery = await _delivery(old, webhook)
    await wait_for(_attempts_reach(old_delivery.id, 1))
    # A day later its retry fails too, past the 24 hour window: the old delivery is failed for good
    frozen_clock.advance(days=1)
    await _release(broker, await WebhookDelivery.get(id=old_delivery.id))
    await wait_for(_attempts_reach(old_delivery.id, 2))
    assert (await WebhookDelivery.get(id=old_delivery.id)).status == "failed"
    (recent,) = await _emit(workspace_id)
    recent_delivery = await _delivery(recent, webhook)
    await wait_for(_attempts_reach(recent_delivery.id, 1))
    receiver.default = 200
    # 7 days and 1 second after the first event: only the second is inside the replay period
    frozen_clock.advance(days=6, seconds=1)
    async with unit_of_work():
        result = await management.replay(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id)
    assert result.queued == 1
    await settle(worker, redis_client)
    assert (await WebhookDelivery.get(id=recent_delivery.id)).status == "succeeded"
    assert (await WebhookDelivery.get(id=old_delivery.id)).status == "failed"
    assert [r.event_id for r in receiver.received].count(str(old.id)) == 2


async def test_the_delivery_actor_is_idempotent(database, worker, broker, receiver, frozen_clock, redis_client):
    admin = await make_principal()
    webhook, _ = await _webhook(admin, receiver.url())
    (event,) = await _emit(next(iter(admin.accesses)))
    await worker.drain()
    delivery = await _delivery(event, webhook)
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
    (failing,) = await _emit(next(iter(admin.accesses)))
    retrying = await _delivery(failing, webhook)
    await wait_for(_attempts_reach(retrying.id, 1))
    retrying = await WebhookDelivery.get(id=retrying.id)
    await asyncio.to_thread(actor.send, str(retrying.id), 2)  # early
    await asyncio.to_thread(actor.send, str(retrying.id), 1)  # stale
    await settle(worker, redis_client)
    assert await _attempts(retrying.id) == 1 and len(receiver.received) == 2
    frozen_clock.set(retrying.next_attempt_at)
    for _ in range(3):  # the due message, duplicated
        await asyncio.to_thread(actor.send, str(retrying.id), 2)
    await settle(worker, redis_client)
    assert await _attempts(retrying.id) == 2 and len(receiver.received) == 3


async def test_a_slow_receiver_does_not_hold_up_other_webhooks(database, worker, receiver, second_receiver,
                                                               webhook_settings):
    webhook_settings(webhook_concurrency_per_endpoint=1)
    receiver.delay_seconds = 0.25
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    slow, _ = await _webhook(admin, receiver.url("/slow"))
    fast, _ = await _webhook(admin, second_receiver.url("/fast"))
    await _emit(workspace_id, 6)

    async def fast_done() -> bool:
        return await WebhookDelivery.filter(webhook_id=fast.id, status="succeeded").count() == 6
    await wait_for(fast_done)
    # The fast receiver got everything while the slow one was still working through its backlog
    assert await WebhookDelivery.filter(webhook_id=slow.id, status="succeeded").count() < 6
    await worker.drain(timeout=15)
    assert await WebhookDelivery.filter(webhook_id=slow.id, status="succeeded").count() == 6
    # Never more than the per-webhook limit in flight to the slow receiver; parked ones were handed on
    assert receiver.max_in_flight == 1 and len(receiver.received) == 6


async def test_forbidden_addresses_are_refused_at_delivery_time(database, worker, receiver, webhook_settings,
                                                                monkeypatch):
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    loopback, _ = await _webhook(admin, receiver.url())
    # A name that resolved to a public address when the webhook was created...
    from domain.webhooks import url_guard

    async def public(host, port):
        return ["93.184.216.34"]
    monkeypatch.setattr(url_guard, "resolve", public)
    rebinding, _ = await _webhook(admin, "https://rebind.example.com/hook")

    # ...answers a private address at delivery time (DNS rebinding)
    async def private(self, host, port=0, family=0):
        return [{"hostname": host, "host": "10.0.0.7", "port": port, "family": 2, "proto": 6, "flags": 0}]
    monkeypatch.setattr("aiohttp.resolver.ThreadedResolver.resolve", private)
    # And loopback is no longer allowed (as in production)
    webhook_settings(webhook_allow_loopback=False)
    (event,) = await _emit(workspace_id)
    for webhook, category in ((loopback, "loopback"), (rebinding, "private")):
        delivery = await _delivery(event, webhook)
        await wait_for(_attempts_reach(delivery.id, 1))
        attempt = await WebhookAttempt.get(delivery_id=delivery.id)
        assert attempt.response_status is None and attempt.error == (
            f"refused: the host resolves to a {category} address"), attempt.error
    assert receiver.received == []


async def test_during_a_rotation_both_secrets_sign_then_only_the_new_one(database, worker, receiver, frozen_clock):
    admin = await make_principal()
    workspace_id = next(iter(admin.accesses))
    webhook, old_secret = await _webhook(admin, receiver.url())
    async with unit_of_work():
        _, new_secret = await management.rotate_secret(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id)
    await _emit(workspace_id)
    await worker.drain()
    during = receiver.received[-1]
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    assert _verify(old_secret, during) and _verify(new_secret, during)
    # After the 24 hour grace only the new secret signs
    frozen_clock.advance(hours=24, seconds=1)
    await _emit(workspace_id)
    await worker.drain()
    after = receiver.received[-1]
    signatures = after.headers["webhook-signature"].split(" ")
    timestamp = int(after.headers["webhook-timestamp"])
    assert timestamp == int(frozen_clock.now().timestamp())
    assert signatures == [StandardWebhook(new_secret).sign(after.event_id, _at(timestamp), after.body.decode())]


def _at(timestamp: int):
    from datetime import datetime, timezone
    return datetime.fromtimestamp(timestamp, tz=timezone.utc)


async def test_test_event_through_the_api_reaches_the_receiver(client, worker, receiver):
    from tests.conftest import make_caller

    admin = await make_caller(client)
    _, created = await client.post("/api/v1/webhooks", headers=admin.headers(),
                                   json={"url": receiver.url(), "event_types": ["transaction.created"]})
    webhook = created.json
    _, response = await client.post(f"/api/v1/webhooks/{webhook['id']}/test", headers=admin.headers())
    await worker.drain()
    (request,) = receiver.received
    payload = StandardWebhook(webhook["secret"]).verify(request.body, request.headers)
    assert payload["type"] == "webhook.test" and payload["id"] == response.json["event_id"]
    assert payload["data"]["webhook_id"] == webhook["id"]
    _, history = await client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries?event_type=webhook.test",
                                  headers=admin.headers())
    (entry,) = history.json["items"]
    assert entry["status"] == "succeeded" and entry["attempt"] == 1 and entry["response_status_code"] == 200
    assert entry["response_body"] == '{"ok":true}' and entry["error"] is None
    _, detail = await client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries/{entry['id']}", headers=admin.headers())
    assert [a["attempt"] for a in detail.json["attempts"]] == [1] and detail.json["attempts"][0]["succeeded"]
