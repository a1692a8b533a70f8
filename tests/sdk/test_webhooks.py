"""Webhook verification (custody_sdk.webhooks) of real deliveries: the service signs and sends them
through its worker to a receiver on loopback; the SDK accepts them, refuses tampered, stale and
foreign ones, and accepts either secret during a rotation."""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone

import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook

from custody_sdk import WebhookVerificationError, WebhookVerifier
from custody_sdk.openapi.api.webhooks import create_webhook, rotate_secret, send_test_event
from custody_sdk.openapi.models import WebhookCreate
from tests.support.callers import make_api_user
from tests.support.receiver import Received
from tests.support.sdk import sdk_for, service_clock


async def _deliver_test_event(custody, webhook_id, worker, receiver) -> Received:  # noqa: ANN001
    sent = await custody.call(send_test_event, webhook_id=webhook_id)
    await worker.drain()
    (delivered,) = [r for r in receiver.received if r.event_id == str(sent.event_id)]
    return delivered


async def test_a_delivery_is_verified_and_tampered_or_stale_ones_are_refused(client, worker, receiver):
    # Given a webhook created through the SDK and a test event the service delivered to it
    caller = await make_api_user(role="ADMIN")
    async with sdk_for(client, caller) as custody:
        webhook = await custody.call(create_webhook, body=WebhookCreate(url=receiver.url(),
                                                                        event_types=["transaction.*"]))
        delivered = await _deliver_test_event(custody, webhook.id, worker, receiver)
    verifier = WebhookVerifier(webhook.secret, clock=service_clock)
    # When the receiver verifies it as received
    event = verifier.verify(delivered.body, delivered.headers)
    # Then it is the typed event the service sent
    assert event.type == "webhook.test" and event.id == delivered.headers["webhook-id"]
    assert str(event.workspace_id) == caller.workspace_id and event.data["webhook_id"] == str(webhook.id)
    assert event.transaction is None and event.created_at.tzinfo is not None
    # When the body, the signature or the headers were tampered with, it is refused
    tampered = delivered.body.replace(b"webhook.test", b"webhook.tesT")
    for body, headers, reason in [
        (tampered, delivered.headers, "no signature matches"),
        (delivered.body, {**delivered.headers, "webhook-signature": "v1," + "A" * 44}, "no signature matches"),
        (delivered.body, {**delivered.headers, "webhook-signature": "v1,not base64!"}, "no signature matches"),
        (delivered.body, {**delivered.headers, "webhook-id": str(uuid.uuid4())}, "no signature matches"),
        (delivered.body, {k: v for k, v in delivered.headers.items() if k != "webhook-timestamp"}, "missing"),
        (delivered.body, {**delivered.headers, "webhook-timestamp": "soon"}, "unix seconds"),
    ]:
        with pytest.raises(WebhookVerificationError, match=reason):
            verifier.verify(body, headers)
    # When it is replayed ten minutes later, it is refused; unless the receiver allows that much
    later = service_clock() + 600
    with pytest.raises(WebhookVerificationError, match="tolerance"):
        WebhookVerifier(webhook.secret, clock=lambda: later).verify(delivered.body, delivered.headers)
    assert WebhookVerifier(webhook.secret, clock=lambda: later, tolerance=900).verify(
        delivered.body, delivered.headers).id == event.id


def test_a_signed_body_whose_id_is_not_the_webhook_id_is_refused():
    # Given a delivery signed with the right secret whose body names another event
    secret = "whsec_" + "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    body = json.dumps({"type": "webhook.test", "id": str(uuid.uuid4()), "created_at": "2030-01-01T00:00:00Z",
                       "workspace_id": str(uuid.uuid4()), "data": {}})
    msg_id, now = str(uuid.uuid4()), datetime.now(timezone.utc)
    headers = {"webhook-id": msg_id, "webhook-timestamp": str(int(now.timestamp())),
               "webhook-signature": StandardWebhook(secret).sign(msg_id, now, body)}
    # Then it is refused: the deduplication key must be the event's id
    with pytest.raises(WebhookVerificationError, match="not the webhook-id"):
        WebhookVerifier(secret).verify(body, headers)
    with pytest.raises(ValueError, match="whsec_"):
        WebhookVerifier("whsec_!!!")


async def test_either_secret_verifies_during_a_rotation(client, worker, receiver):
    # Given a webhook whose secret was rotated, and an event delivered after the rotation
    caller = await make_api_user(role="ADMIN")
    async with sdk_for(client, caller) as custody:
        webhook = await custody.call(create_webhook, body=WebhookCreate(url=receiver.url(),
                                                                        event_types=["transaction.*"]))
        rotated = await custody.call(rotate_secret, webhook_id=webhook.id)
        delivered = await _deliver_test_event(custody, webhook.id, worker, receiver)
    old, new = webhook.secret, rotated.secret
    assert old != new and len(delivered.headers["webhook-signature"].split()) == 2
    # Then a receiver holding either secret, or both, accepts it; one holding neither refuses it
    for secrets in ([old], [new], [new, old]):
        assert WebhookVerifier(secrets, clock=service_clock).verify(delivered.body, delivered.headers).id == \
            delivered.event_id
    stranger = "whsec_" + "c3RyYW5nZXJzdHJhbmdlcnN0cmFuZ2Vyc3RyYW5n"
    with pytest.raises(WebhookVerificationError):
        WebhookVerifier([stranger], clock=service_clock).verify(delivered.body, delivered.headers)
