"""Operations endpoints: /health, /ready (database, Redis, migrations) and /metrics."""

from __future__ import annotations

import re

from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import operations
from domain.webhooks import events
from tests.support.callers import make_caller


async def test_health_answers_without_a_token(client):
    _, response = await client.get("/health")
    assert response.status == 200 and response.json == {"status": "ok"}


async def test_sanic_ext_answers_head_and_options_beside_every_get(client, app):
    # (its routes are added when the app starts: api.app._add_auto_routes_in_one_go)
    _, head = await client.request("HEAD", "/health")
    _, options = await client.request("OPTIONS", "/api/v1/vault/accounts")
    assert head.status == 200 and options.status == 204
    assert set(options.headers["allow"].split(",")) == {"GET", "HEAD", "POST", "OPTIONS"}
    routes = [route for route in app.router.routes]
    gets = {route.path for route in routes if "GET" in route.methods}
    assert gets == {route.path for route in routes if "HEAD" in route.methods}
    assert {route.path for route in routes} == {route.path for route in routes if "OPTIONS" in route.methods}
    # And the start left the signal router as it was made: each signal once
    signals = [route.name for route in app.signal_router.routes]
    assert signals.count("sanic.__signal__.__init__") == 1


async def test_ready_checks_the_database_redis_and_migrations(client):
    _, response = await client.get("/ready")
    assert response.status == 200
    assert response.json["status"] == "ready"
    assert all(response.json[name]["ok"] for name in ("database", "redis", "migrations"))


async def test_ready_says_which_migration_is_missing(client, monkeypatch):
    # Given code that ships a migration the database has not applied
    shipped = operations.committed_migrations() | {"9999_not_applied_yet"}
    monkeypatch.setattr(operations, "committed_migrations", lambda: shipped)
    _, response = await client.get("/ready")
    assert response.status == 503 and response.json["status"] == "not_ready"
    assert response.json["migrations"] == {"ok": False, "detail": "1 migration(s) not applied: 9999_not_applied_yet"}
    assert response.json["database"]["ok"] and response.json["redis"]["ok"]


async def test_metrics_count_requests_by_route_and_export_the_domain_gauges(client, frozen_clock, monkeypatch):
    from api import health

    monkeypatch.setattr(health, "_gauges_at", 0.0)
    caller = await make_caller()
    async with unit_of_work():
        await events.emit_event(workspace_id=caller.workspace_id, event_type="transaction.created", data={})
    await client.get("/api/v1/workspace", headers=caller.headers())
    _, response = await client.get("/metrics")
    text = response.body.decode()
    assert response.status == 200 and response.headers["content-type"].startswith("text/plain")
    # Requests by route pattern and status, with their latency
    assert 'custody_http_requests_total{method="GET",route="api/v1/workspace",status="200"}' in text
    assert 'custody_http_request_duration_seconds_bucket{le="0.1",method="GET",route="api/v1/workspace"}' in text
    # The domain gauges: the event's fan-out command waits in the outbox (no worker here)
    pending = float(re.search(r"^custody_outbox_pending_commands (\S+)$", text, re.M).group(1))
    assert pending == await Command.filter(status="pending").count() >= 1
    assert 'custody_webhook_deliveries{status="pending"}' in text
    for gauge in ("custody_webhooks_disabled", "custody_signing_sessions_in_flight", "custody_key_generations_stuck",
                  "custody_outbox_oldest_pending_seconds", "custody_oldest_transaction_seconds"):
        assert gauge in text
    # No secret, no token in the exposition
    assert caller.token not in text


async def test_metrics_export_readiness_the_queues_in_redis_and_the_gauges_alerts_page_on(client, broker, monkeypatch):
    from dramatiq.message import Message

    from api import health
    from tests.support.environment import TEST_NAMESPACE

    monkeypatch.setattr(health, "_gauges_at", 0.0)
    # Given a dead letter in the webhooks queue
    dead = Message(queue_name="webhooks", actor_name="webhooks.deliver", args=("x",), kwargs={}, options={})
    broker.client.zadd(f"{TEST_NAMESPACE}:webhooks.XQ", {dead.message_id: 1})
    broker.client.hset(f"{TEST_NAMESPACE}:webhooks.XQ.msgs", dead.message_id, dead.encode())
    # When Prometheus scrapes
    _, response = await client.get("/metrics")
    text = response.body.decode()
    # Then each readiness check is a gauge, and every queue's depths by state are there
    for check in ("database", "redis", "migrations"):
        assert re.search(rf'^custody_ready{{check="{check}"}} 1\.0$', text, re.M), check
    assert re.search(r'^custody_queue_messages{queue="webhooks",state="dead"} 1\.0$', text, re.M)
    assert re.search(r'^custody_queue_messages{queue="signer_1",state="ready"} 0\.0$', text, re.M)
    assert 'custody_queue_oldest_ready_seconds{queue="withdrawals"}' in text
    # And the gauges the alerting rules page on (deploy/prometheus; other tests' rows may count)
    assert re.search(r"^custody_webhooks_disabled_by_failures \d+\.\d+$", text, re.M)
    assert re.search(r"^custody_signing_sessions_oldest_in_flight_seconds \d+(\.\d+)?(e[+-]?\d+)?$", text, re.M)
