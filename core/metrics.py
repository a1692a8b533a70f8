"""Prometheus metrics of the API process (prometheus-client), and their exposition.

Worker pools export theirs through dramatiq's own Prometheus middleware (``custody.wiring``):
messages, errors, retries, durations and messages in progress per actor, on the pool's
``dramatiq_prom_port``. The API exports request counts, latencies and statuses per route here,
plus the domain gauges, the queues' depths in Redis and the readiness checks (api/health.py
fills them at scrape time). Every metric named in deploy/ (the Grafana dashboard, the alerting
rules) is exported by the API or by the pools; the suite checks it (tests/deploy).

With ``PROMETHEUS_MULTIPROC_DIR`` set (several web workers), every worker writes its samples
there and any one of them answers the scrape for all (prometheus-client's multiprocess mode).
"""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from core.settings import get_settings

#: Latency buckets (seconds) around the API's targets (a read in milliseconds, a write in tens).
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

http_requests = Counter("custody_http_requests_total", "API requests answered, by route and status.",
                        ["method", "route", "status"])
http_latency = Histogram("custody_http_request_duration_seconds", "API request latency by route.",
                         ["method", "route"], buckets=LATENCY_BUCKETS)
http_in_progress = Gauge("custody_http_requests_in_progress", "API requests being served.",
                         multiprocess_mode="livesum")

outbox_pending = Gauge("custody_outbox_pending_commands", "Outbox commands not run yet.",
                       multiprocess_mode="mostrecent")
outbox_oldest_pending = Gauge("custody_outbox_oldest_pending_seconds",
                              "Age of the oldest due outbox command not run yet (0 when none).",
                              multiprocess_mode="mostrecent")
outbox_failed = Gauge("custody_outbox_failed_commands", "Outbox commands that failed for good.",
                      multiprocess_mode="mostrecent")
webhook_deliveries = Gauge("custody_webhook_deliveries", "Webhook deliveries by status.", ["status"],
                           multiprocess_mode="mostrecent")
webhooks_disabled = Gauge("custody_webhooks_disabled", "Webhooks disabled (by failures or by hand).",
                          multiprocess_mode="mostrecent")
signing_in_flight = Gauge("custody_signing_sessions_in_flight", "Signing sessions in round 1 or 2.",
                          multiprocess_mode="mostrecent")
key_generations_stuck = Gauge("custody_key_generations_stuck",
                              "Key generations still running long after they began.",
                              multiprocess_mode="mostrecent")
webhooks_disabled_by_failures = Gauge(
    "custody_webhooks_disabled_by_failures",
    "Webhooks disabled after 50 consecutive failed deliveries (their receivers get nothing).",
    multiprocess_mode="mostrecent")
signing_oldest_in_flight = Gauge("custody_signing_sessions_oldest_in_flight_seconds",
                                 "Age of the oldest signing session still in round 1 or 2 (0 when none).",
                                 multiprocess_mode="mostrecent")
oldest_transaction = Gauge("custody_oldest_transaction_seconds",
                           "Age of the oldest open PostgreSQL transaction holding a transaction id, on the "
                           "whole server: it holds the change log's horizon back (docs/wallets.md).",
                           multiprocess_mode="mostrecent")
queue_messages = Gauge("custody_queue_messages",
                       "Messages per queue in Redis by state: ready, delayed, in_progress, dead (dead letters).",
                       ["queue", "state"], multiprocess_mode="mostrecent")
queue_oldest_ready = Gauge("custody_queue_oldest_ready_seconds",
                           "Age of the oldest message ready in the queue (0 when none).", ["queue"],
                           multiprocess_mode="mostrecent")
ready = Gauge("custody_ready", "Readiness checks of /ready, 1 when the check passes (database, redis, migrations).",
              ["check"], multiprocess_mode="mostrecent")


def render() -> tuple[bytes, str]:
    """The exposition of this process (or of every process, in multiprocess mode)."""
    if get_settings().prometheus_multiproc_dir:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
