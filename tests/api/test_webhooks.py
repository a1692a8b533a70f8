"""Webhook management API: /api/v1/webhooks (bearer + X-Workspace-Id).

The validation and SSRF matrices run at domain level (tests/domain/webhooks/test_management.py);
here each kind of answer is checked once through HTTP: status, envelope, code, field.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from standardwebhooks.webhooks import Webhook as StandardWebhook

from core.outbox import Command
from models.audit import AuditEntry
from models.webhooks import Webhook, WebhookDelivery, WebhookEvent
from tests.support.approvals import make_owner
from tests.support.callers import make_caller

URL = "http://127.0.0.1:9/hook"  # loopback is allowed in the test settings; nothing is sent here


async def _create(client, caller, **body):
    payload = {"url": URL, "event_types": ["transaction.*"], **body}
    return await client.post("/api/v1/webhooks", headers=caller.headers(), json=payload)


async def test_create_shows_the_secret_once_and_reads_never_do(client):
    admin = await make_caller(role="ADMIN")
    _, created = await _create(client, admin, description="ledger sync", event_types=["transaction.created"])
    assert created.status == 201
    body = created.json
    assert body["secret"].startswith("whsec_") and body["status"] == "active"
    assert body["url"] == URL and body["event_types"] == ["transaction.created"]
    assert body["description"] == "ledger sync" and body["consecutive_failures"] == 0
    _, fetched = await client.get(f"/api/v1/webhooks/{body['id']}", headers=admin.headers())
    assert fetched.status == 200 and "secret" not in fetched.json
    assert fetched.json == {k: v for k, v in body.items() if k != "secret"}
    _, listed = await client.get("/api/v1/webhooks?limit=5", headers=admin.headers())
    assert listed.json["total"] == 1 and listed.json["limit"] == 5 and listed.json["offset"] == 0
    assert listed.json["items"] == [fetched.json]
    # The secret is sealed at rest, not stored in clear.
    stored = await Webhook.get(id=body["id"])
    assert body["secret"].encode() not in bytes(stored.secret_sealed)
    assert await AuditEntry.filter(action="webhook.created", object_id=body["id"]).count() == 1


async def test_viewer_cannot_read_and_signer_cannot_manage(client):
    owner = await make_owner()
    webhook = (await _create(client, owner))[1].json
    viewer = await make_caller(role="VIEWER", workspace_id=owner.workspace_id)
    signer = await make_caller(role="SIGNER", workspace_id=owner.workspace_id)
    _, denied = await client.get("/api/v1/webhooks", headers=viewer.headers())
    assert denied.status == 403 and denied.json["details"]["permission"] == "VIEW_WEBHOOKS"
    assert (await client.get(f"/api/v1/webhooks/{webhook['id']}", headers=signer.headers()))[1].status == 200
    _, signer_replay = await client.post(f"/api/v1/webhooks/{webhook['id']}/replay", headers=signer.headers())
    assert signer_replay.status == 403 and signer_replay.json["details"]["permission"] == "MANAGE_WEBHOOKS"


async def test_bad_requests_are_400_with_code_and_field_and_create_nothing(client):
    admin = await make_caller()
    for body, field, code in (
        ({"event_types": ["transaction.*"]}, "url", "VALIDATION_ERROR"),  # missing: the uniform answer
        ({"url": URL, "event_types": ["transaction.deleted"]}, "event_types", "INVALID_EVENT_TYPE"),
        ({"url": URL, "event_types": ["transaction.*"], "events": ["x"]}, "events", "VALIDATION_ERROR"),
        ({"url": "https://169.254.169.254/latest/meta-data/", "event_types": ["transaction.*"]}, "url",
         "WEBHOOK_URL_FORBIDDEN"),
        ({"url": "https://10.0.0.1/", "event_types": ["transaction.*"]}, "url", "WEBHOOK_URL_FORBIDDEN"),
    ):
        _, response = await client.post("/api/v1/webhooks", headers=admin.headers(), json=body)
        assert response.status == 400 and set(response.json) == {"code", "error", "details"}, response.json
        assert response.json["code"] == code and response.json["details"]["field"] == field
    _, malformed = await client.post("/api/v1/webhooks", headers={**admin.headers(), "Content-Type": "application/json"},
                                     content=b"{not json")
    assert malformed.status == 400 and malformed.json["code"] == "MALFORMED_JSON"
    assert await Webhook.all().count() == 0


async def test_put_updates_disables_and_reactivates(client):
    admin = await make_caller()
    webhook = (await _create(client, admin))[1].json
    path = f"/api/v1/webhooks/{webhook['id']}"
    _, updated = await client.put(path, headers=admin.headers(), json={
        "url": "http://127.0.0.1:10/other", "event_types": ["transaction.updated"], "description": "renamed"})
    assert updated.status == 200 and updated.json["url"] == "http://127.0.0.1:10/other"
    assert updated.json["event_types"] == ["transaction.updated"] and updated.json["description"] == "renamed"
    _, bad = await client.put(path, headers=admin.headers(), json={"status": "paused"})
    assert bad.status == 400 and bad.json["details"]["field"] == "status"
    _, disabled = await client.put(path, headers=admin.headers(), json={"status": "disabled"})
    assert disabled.json["status"] == "disabled" and disabled.json["disabled_reason"] == "disabled by a user"
    # While disabled: no test event, no replay (409 with a code)
    for action in ("test", "replay"):
        _, refused = await client.post(f"{path}/{action}", headers=admin.headers())
        assert refused.status == 409 and refused.json["code"] == "WEBHOOK_DISABLED"
    _, active = await client.put(path, headers=admin.headers(), json={"status": "active"})
    assert active.json["status"] == "active" and active.json["disabled_at"] is None
    _, deleted = await client.delete(path, headers=admin.headers())
    assert deleted.status == 204
    _, gone = await client.get(path, headers=admin.headers())
    assert gone.status == 404 and gone.json["code"] == "WEBHOOK_NOT_FOUND"


async def test_rotation_returns_a_new_secret_and_a_24_hour_grace(client, frozen_clock):
    admin = await make_caller()
    webhook = (await _create(client, admin))[1].json
    _, rotated = await client.post(f"/api/v1/webhooks/{webhook['id']}/rotate-secret", headers=admin.headers())
    assert rotated.status == 200 and rotated.json["secret"].startswith("whsec_")
    assert rotated.json["secret"] != webhook["secret"]
    expected = (frozen_clock.now() + timedelta(hours=24)).isoformat().replace("+00:00", "Z")
    assert rotated.json["previous_secret_expires_at"] == expected
    frozen_clock.advance(hours=24, seconds=1)
    await admin.login()  # the access token expired meanwhile
    _, later = await client.get(f"/api/v1/webhooks/{webhook['id']}", headers=admin.headers())
    assert later.json["previous_secret_expires_at"] is None


async def test_another_workspaces_webhook_answers_like_a_missing_one(client):
    alice = await make_caller()
    bob = await make_caller()
    webhook = (await _create(client, alice))[1].json
    foreign = f"/api/v1/webhooks/{webhook['id']}"
    unknown = f"/api/v1/webhooks/{uuid.uuid4()}"
    _, missing = await client.get(unknown, headers=bob.headers())
    for suffix, method, body in (("", "get", None), ("", "put", {"status": "disabled"}), ("", "delete", None),
                                 ("/rotate-secret", "post", None), ("/test", "post", None),
                                 ("/replay", "post", None), ("/deliveries", "get", None),
                                 (f"/deliveries/{uuid.uuid4()}", "get", None)):
        kwargs = {"json": body} if body is not None else {}
        _, response = await getattr(client, method)(foreign + suffix, headers=bob.headers(), **kwargs)
        assert response.status == 404 and response.json == missing.json, suffix
    assert (await client.get("/api/v1/webhooks", headers=bob.headers()))[1].json["total"] == 0
    stored = await Webhook.get(id=webhook["id"])
    assert stored.status == "active" and stored.deleted_at is None and stored.secret_rotated_at is None


async def test_test_event_is_recorded_and_queued_in_one_transaction(client):
    admin = await make_caller()
    webhook = (await _create(client, admin))[1].json
    _, response = await client.post(f"/api/v1/webhooks/{webhook['id']}/test", headers=admin.headers())
    assert response.status == 202 and response.json["event_type"] == "webhook.test"
    event = await WebhookEvent.get(id=response.json["event_id"])
    delivery = await WebhookDelivery.get(id=response.json["delivery_id"])
    assert event.type == "webhook.test" and delivery.status == "pending"
    command = await Command.get(actor_name="webhooks.fan_out")
    assert command.payload == {"event_id": str(event.id)}


async def test_delivery_history_validates_filters_and_replay_with_nothing_queues_nothing(client, frozen_clock):
    admin = await make_caller()
    webhook = (await _create(client, admin))[1].json
    base = f"/api/v1/webhooks/{webhook['id']}"
    for query, field in (("status=done", "status"), ("event_type=transaction.deleted", "event_type"),
                         ("limit=251", "limit")):
        _, bad = await client.get(f"{base}/deliveries?{query}", headers=admin.headers())
        assert bad.status == 400 and bad.json["details"]["field"] == field, query
    _, ok = await client.get(f"{base}/deliveries?status=failed&event_type=transaction.*&limit=10",
                             headers=admin.headers())
    assert ok.status == 200 and ok.json == {"items": [], "total": 0, "limit": 10, "offset": 0}
    _, missing = await client.get(f"{base}/deliveries/{uuid.uuid4()}", headers=admin.headers())
    assert missing.status == 404 and missing.json["code"] == "WEBHOOK_DELIVERY_NOT_FOUND"
    _, replayed = await client.post(f"{base}/replay", headers=admin.headers())
    assert replayed.status == 202 and replayed.json == {
        "queued": 0, "since": (frozen_clock.now() - timedelta(days=7)).isoformat().replace("+00:00", "Z")}
    assert await Command.filter(actor_name="webhooks.enqueue_due").count() == 0


async def test_test_event_through_the_api_reaches_the_receiver(client, worker, receiver):
    # Given a webhook created through the API, its receiver listening
    admin = await make_caller()
    _, created = await client.post("/api/v1/webhooks", headers=admin.headers(),
                                   json={"url": receiver.url(), "event_types": ["transaction.created"]})
    webhook = created.json
    # When a test event is requested and the worker delivers it
    _, response = await client.post(f"/api/v1/webhooks/{webhook['id']}/test", headers=admin.headers())
    await worker.drain()
    # Then the receiver got it, signed with the webhook's secret
    (request,) = receiver.received
    payload = StandardWebhook(webhook["secret"]).verify(request.body, request.headers)
    assert payload["type"] == "webhook.test" and payload["id"] == response.json["event_id"]
    assert payload["data"]["webhook_id"] == webhook["id"]
    # And the delivery history shows the attempt
    _, history = await client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries?event_type=webhook.test",
                                  headers=admin.headers())
    (entry,) = history.json["items"]
    assert entry["status"] == "succeeded" and entry["attempt"] == 1 and entry["response_status_code"] == 200
    assert entry["response_body"] == '{"ok":true}' and entry["error"] is None
    _, detail = await client.get(f"/api/v1/webhooks/{webhook['id']}/deliveries/{entry['id']}", headers=admin.headers())
    assert [a["attempt"] for a in detail.json["attempts"]] == [1] and detail.json["attempts"][0]["succeeded"]
