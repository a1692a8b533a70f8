"""Webhook delivery (domain/webhooks/delivery.py and sender.py) through the real worker, to a
real receiver on loopback: signatures, the retry schedule, failures, disabling, concurrency, the
SSRF guard at delivery time and secret rotation.

Retries use the broker's delay (seconds to hours of real time), so schedule tests move the
FrozenClock to the due time and deliver the message the broker would release then.
"""

from __future__ import annotations

import asyncio
import json
import socket
import uuid
from datetime import timedelta

import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook

from core.unit_of_work import unit_of_work
from domain.webhooks import catalogue, delivery, management, schedule, sender, url_guard
from domain.webhooks.delivery import DeliveryJob
from models.audit import AuditEntry
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery
from tests.support.callers import make_principal
from tests.support.environment import TEST_NAMESPACE
from tests.support.webhooks import (
    attempts_of,
    attempts_reach,
    create_webhook,
    delivery_of,
    emit,
    fan_out_without_enqueueing,
    release_retry,
    verify,
    workspace_of,
)
from tests.support.worker import wait_for


async def test_every_subscriber_receives_every_event_with_valid_signatures(database, worker, receiver,
                                                                           second_receiver):
    admin = await make_principal()
    workspace_id = workspace_of(admin)
    everything, secret_all = await create_webhook(admin, receiver.url("/all"))
    created_only, secret_created = await create_webhook(admin, second_receiver.url("/created"),
                                                  event_types=["transaction.created"])
    # When the service emits 3 created and 2 updated events
    emitted = await emit(workspace_id, 3) + await emit(workspace_id, 2, catalogue.TRANSACTION_UPDATED)
    await worker.drain()
    # Then each subscriber got exactly its events, each signed and verifiable with its secret
    assert sorted(r.event_id for r in receiver.received) == sorted(str(e.id) for e in emitted)
    assert sorted(r.event_id for r in second_receiver.received) == sorted(str(e.id) for e in emitted[:3])
    for request in receiver.received:
        payload = verify(secret_all, request)
        assert request.headers["X-Webhook-Event-Id"] == request.headers["webhook-id"] == payload["id"]
        assert request.headers["Content-Type"] == "application/json"
        assert request.headers["User-Agent"].startswith("custody-wallet-service-webhooks/")
        assert set(payload) == {"type", "id", "created_at", "workspace_id", "data"}
        assert payload["workspace_id"] == str(workspace_id) and payload["data"]["amount"] == "1000"
    for request in second_receiver.received:
        assert verify(secret_created, request)["type"] == "transaction.created"
    # And the history says succeeded on attempt 1 with the response recorded
    delivery = await delivery_of(emitted[0], everything)
    assert (delivery.status, delivery.attempt_count, delivery.last_response_status) == ("succeeded", 1, 200)
    attempt = await WebhookAttempt.get(delivery_id=delivery.id)
    assert attempt.succeeded and attempt.response_body == '{"ok":true}' and attempt.duration_ms >= 0
    assert not await WebhookDelivery.filter(webhook_id=created_only.id, event_type="transaction.updated").exists()


def _delayed_messages(redis_client) -> list[dict]:
    """The delayed messages the broker holds for the webhooks queue (retries waiting for their time)."""
    raw = redis_client.hvals(f"{TEST_NAMESPACE}:webhooks.DQ.msgs")
    return [json.loads(m) for m in raw]


async def test_retries_follow_the_jittered_schedule_until_the_24_hour_window_closes(
        database, worker, broker, receiver, frozen_clock, redis_client):
    receiver.default = 500
    admin = await make_principal()
    webhook, secret = await create_webhook(admin, receiver.url())
    (event,) = await emit(workspace_of(admin))
    delivery = await delivery_of(event, webhook)
    first_attempt_at = frozen_clock.now()
    await wait_for(attempts_reach(delivery.id, 1))
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
            # The retry is a delayed broker message due after that interval (real time), sent once
            # the attempt is recorded
            (message,) = await wait_for(
                lambda: [m for m in _delayed_messages(redis_client) if m["args"][0] == str(delivery.id)])
            assert message["args"] == [str(delivery.id), 2]
            assert abs(message["options"]["eta"] - message["message_timestamp"] - interval.total_seconds() * 1000) < 2000
        if number <= 2:
            # Nothing happens before the due time: an early message is not sent
            await release_retry(broker, delivery)
            await worker.settle()
            assert await attempts_of(delivery.id) == number
        # When the clock reaches the due time and the broker releases the message, the next attempt runs
        frozen_clock.set(delivery.next_attempt_at)
        await release_retry(broker, delivery)
        await wait_for(attempts_reach(delivery.id, number + 1))
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
    webhook, _ = await create_webhook(admin, receiver.url())
    (event,) = await emit(workspace_of(admin))
    delivery = await delivery_of(event, webhook)
    for number in (1, 2, 3, 4):
        await wait_for(attempts_reach(delivery.id, number))
        delivery = await WebhookDelivery.get(id=delivery.id)
        if delivery.status == "retrying":
            frozen_clock.set(delivery.next_attempt_at)
            await release_retry(broker, delivery)
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
    _, history = await management.get_delivery(principal=admin, workspace_id=workspace_of(admin),
                                             webhook_id=webhook.id, delivery_id=delivery.id)
    assert [a.attempt_number for a in history] == [1, 2, 3, 4]


async def test_connection_refused_is_a_failed_attempt(database, worker, receiver):
    await receiver.stop()  # nothing listens on that port any more
    admin = await make_principal()
    webhook, _ = await create_webhook(admin, receiver.url())
    (event,) = await emit(workspace_of(admin))
    delivery = await delivery_of(event, webhook)
    await wait_for(attempts_reach(delivery.id, 1))
    attempt = await WebhookAttempt.get(delivery_id=delivery.id)
    assert attempt.response_status is None and attempt.error.startswith("connection failed")
    assert (await WebhookDelivery.get(id=delivery.id)).status == "retrying"


async def _disabled(webhook_id) -> bool:
    return (await Webhook.get(id=webhook_id)).status == "disabled"


async def test_dead_receiver_disables_the_webhook_and_reactivation_plus_replay_recovers_everything(
        database, worker, receiver, frozen_clock):
    receiver.default = 503
    admin = await make_principal()
    workspace_id = workspace_of(admin)
    webhook, secret = await create_webhook(admin, receiver.url())
    # Given a dead receiver: 50 events, each first attempt failing
    missed = await emit(workspace_id, 50)
    await wait_for(lambda: _disabled(webhook.id))
    # Then the 50th consecutive failure disabled the webhook, and its open deliveries failed
    webhook = await Webhook.get(id=webhook.id)
    assert webhook.consecutive_failures == 50 and webhook.disabled_reason == "50 consecutive failed deliveries"
    assert await AuditEntry.filter(action="webhook.disabled", object_id=str(webhook.id), actor_id=None).count() == 1
    await wait_for(lambda: _none_open(webhook.id))
    assert await WebhookAttempt.all().count() == len(receiver.received) == 50
    # When events occur while it is disabled, they are recorded failed and not sent
    while_disabled = await emit(workspace_id, 3)
    await worker.settle()
    for event in while_disabled:
        delivery = await delivery_of(event, webhook)
        assert (delivery.status, delivery.last_error, delivery.attempt_count) == ("failed", "webhook disabled", 0)
    assert len(receiver.received) == 50
    # When it is reactivated, nothing missed is sent automatically
    receiver.default = 200
    async with unit_of_work():
        await management.update_webhook(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id,
                                      changes={"status": "active"})
    await worker.settle()
    assert len(receiver.received) == 50 and (await Webhook.get(id=webhook.id)).consecutive_failures == 0
    # Then replay queues every failed delivery of the last 7 days, and each is delivered, signed
    async with unit_of_work():
        result = await management.replay(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id)
    assert result.queued == 53
    await worker.settle(timeout=60)  # 53 deliveries through 4 slots: seconds, more on a loaded machine
    assert await WebhookDelivery.filter(webhook_id=webhook.id, status="succeeded").count() == 53
    redelivered = receiver.received[50:]
    assert len(redelivered) == 53
    assert {r.event_id for r in redelivered if verify(secret, r)} == {str(e.id) for e in missed + while_disabled}
    replayed = await delivery_of(while_disabled[0], webhook)
    assert replayed.replay_count == 1 and replayed.attempt_count == 1


async def _none_open(webhook_id) -> bool:
    return not await WebhookDelivery.filter(webhook_id=webhook_id, status__in=["pending", "retrying"]).exists()


async def test_a_slow_receiver_does_not_hold_up_other_webhooks(database, worker, receiver, second_receiver,
                                                               webhook_settings):
    webhook_settings(webhook_concurrency_per_endpoint=1)
    receiver.delay_seconds = 0.25
    admin = await make_principal()
    workspace_id = workspace_of(admin)
    slow, _ = await create_webhook(admin, receiver.url("/slow"))
    fast, _ = await create_webhook(admin, second_receiver.url("/fast"))
    await emit(workspace_id, 6)

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
    workspace_id = workspace_of(admin)
    loopback, _ = await create_webhook(admin, receiver.url())
    # A name that resolved to a public address when the webhook was created...
    from domain.webhooks import url_guard

    async def public(host, port):
        return ["93.184.216.34"]
    monkeypatch.setattr(url_guard, "resolve", public)
    rebinding, _ = await create_webhook(admin, "https://rebind.example.com/hook")

    # ...answers a private address at delivery time (DNS rebinding)
    async def private(self, host, port=0, family=0):
        return [{"hostname": host, "host": "10.0.0.7", "port": port, "family": 2, "proto": 6, "flags": 0}]
    monkeypatch.setattr("aiohttp.resolver.ThreadedResolver.resolve", private)
    # And loopback is no longer allowed (as in production)
    webhook_settings(webhook_allow_loopback=False)
    (event,) = await emit(workspace_id)
    for webhook, category in ((loopback, "loopback"), (rebinding, "private")):
        delivery = await delivery_of(event, webhook)
        await wait_for(attempts_reach(delivery.id, 1))
        attempt = await WebhookAttempt.get(delivery_id=delivery.id)
        assert attempt.response_status is None and attempt.error == (
            f"refused: the host resolves to a {category} address"), attempt.error
    assert receiver.received == []


async def test_during_a_rotation_both_secrets_sign_then_only_the_new_one(database, worker, receiver, frozen_clock):
    admin = await make_principal()
    workspace_id = workspace_of(admin)
    webhook, old_secret = await create_webhook(admin, receiver.url())
    async with unit_of_work():
        _, new_secret = await management.rotate_secret(principal=admin, workspace_id=workspace_id, webhook_id=webhook.id)
    await emit(workspace_id)
    await worker.drain()
    during = receiver.received[-1]
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    assert verify(old_secret, during) and verify(new_secret, during)
    # After the 24 hour grace only the new secret signs
    frozen_clock.advance(hours=24, seconds=1)
    await emit(workspace_id)
    await worker.drain()
    after = receiver.received[-1]
    signatures = after.headers["webhook-signature"].split(" ")
    timestamp = int(after.headers["webhook-timestamp"])
    assert timestamp == int(frozen_clock.now().timestamp())
    assert signatures == [StandardWebhook(new_secret).sign(after.event_id, _at(timestamp), after.body.decode())]


def _at(timestamp: int):
    from datetime import datetime, timezone
    return datetime.fromtimestamp(timestamp, tz=timezone.utc)


async def test_parked_and_in_flight_deliveries_are_left_to_the_attempt_in_flight(database, frozen_clock, receiver):
    admin = await make_principal()
    await create_webhook(admin, receiver.url())
    in_flight = await fan_out_without_enqueueing(workspace_of(admin))
    parked = await fan_out_without_enqueueing(workspace_of(admin))
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


async def test_two_sweeps_at_once_never_take_the_same_delivery(database, frozen_clock, receiver):
    # Given a new delivery whose message was lost, overdue
    admin = await make_principal()
    await create_webhook(admin, receiver.url())
    lost = await fan_out_without_enqueueing(workspace_of(admin))
    frozen_clock.advance(catalogue.SWEEP_GRACE + timedelta(seconds=1))
    # When one sweep has taken it and not committed yet, and another sweep runs meanwhile
    taken, release = asyncio.Event(), asyncio.Event()

    async def first_sweep() -> list[delivery.OverdueDelivery]:
        async with unit_of_work():
            found = await delivery.overdue_deliveries()
            taken.set()
            await release.wait()
        return found

    first = asyncio.create_task(first_sweep())
    await taken.wait()
    try:
        async with unit_of_work():
            second = await asyncio.wait_for(delivery.overdue_deliveries(), timeout=10)
    finally:
        release.set()
    # Then the second passes over it (SKIP LOCKED, without waiting): only the first sends it again
    assert [d.delivery_id for d in await first] == [lost.id]
    assert second == []


async def test_no_connection_is_made_to_a_forbidden_address_whatever_the_url_spells(database, webhook_settings):
    # Given a TCP listener on loopback that counts connections, and loopback forbidden (production)
    connections = []

    async def count(reader, writer):
        connections.append(writer.get_extra_info("peername"))
        writer.close()

    server = await asyncio.start_server(count, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    webhook_settings(webhook_allow_loopback=False)
    try:
        # When deliveries are attempted to URLs that spell loopback in ways a parser may miss
        for url in (f"https://①②⑦.0.0.1:{port}/hook", f"https://１２７．０．０．１:{port}/hook",
                    f"https://[::ffff:127.0.0.1]:{port}/hook"):
            outcome = await sender.post(DeliveryJob(delivery_id=uuid.uuid4(), webhook_id=uuid.uuid4(),
                                                    event_id=uuid.uuid4(), url=url, body=b"{}", attempt=1,
                                                    secrets=["whsec_" + "A" * 43 + "="]))
            # Then each attempt is refused, naming the kind of address
            assert outcome.response_status is None
            assert outcome.error == "refused: the host resolves to a loopback address", (url, outcome.error)
    finally:
        server.close()
        await server.wait_closed()
    # And not one connection reached the listener
    assert connections == []


async def test_a_webhook_url_is_vetted_once_per_process_and_a_refusal_is_never_kept(settings, receiver,
                                                                                   webhook_settings, monkeypatch):
    # Given a receiver on loopback, allowed (development), and the URLs the guard parses, counted
    parsed = []
    parse = url_guard.parse_url
    monkeypatch.setattr(url_guard, "parse_url", lambda raw: parsed.append(raw) or parse(raw))
    sender._checked_target.cache_clear()
    webhook_settings(webhook_allow_loopback=True)
    url = receiver.url("/vetted")

    def attempt() -> DeliveryJob:
        return DeliveryJob(delivery_id=uuid.uuid4(), webhook_id=uuid.uuid4(), event_id=uuid.uuid4(), url=url,
                           body=b"{}", attempt=1, secrets=["whsec_" + "A" * 43 + "="])

    # When three attempts go to its URL
    outcomes = [await sender.post(attempt()) for _ in range(3)]
    # Then all three arrive, and the URL was parsed and vetted once
    assert [outcome.response_status for outcome in outcomes] == [200, 200, 200]
    assert len(receiver.by_path("/vetted")) == 3 and parsed == [url]
    # When loopback is then forbidden (production)
    webhook_settings(webhook_allow_loopback=False)
    for _ in range(2):
        outcome = await sender.post(attempt())
        # Then every attempt is refused, each one vetted again
        assert outcome.response_status is None
        assert outcome.error == "refused: the host resolves to a loopback address", outcome.error
    assert parsed == [url] * 3 and len(receiver.by_path("/vetted")) == 3


def test_every_socket_of_a_delivery_is_checked_against_its_peer_address(settings, webhook_settings):
    # The last check before a byte leaves: whatever resolved the host, its socket is vetted
    webhook_settings(webhook_allow_loopback=False)
    for address, category in ((("10.0.0.7", 443), "private"), (("127.0.0.1", 443), "loopback"),
                              (("fec0::1", 443, 0, 0), "private"), (("2002:a9fe:a9fe::1", 443, 0, 0), "metadata")):
        family = socket.AF_INET6 if ":" in address[0] else socket.AF_INET
        with pytest.raises(url_guard.AddressRefused) as refused:
            sender.guarded_socket((family, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", address))
        assert refused.value.category == category
    public = sender.guarded_socket((socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", ("93.184.216.34", 443)))
    public.close()
