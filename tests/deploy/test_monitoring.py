"""deploy/: the Grafana dashboard, the Prometheus alerting rules and their runbooks.

The rules pass promtool (its syntax check, and the unit tests of deploy/prometheus/alerts.test.yml
that make each alert fire and stay quiet), the dashboard is an importable Grafana dashboard, every
alert links an existing runbook, and every metric the dashboard and the rules name is exported by
the running service: the API's /metrics and a real worker pool's exposition server, scraped here.

promtool is Debian's ``prometheus`` package: scripts/setup installs it in CI (CI=true, apt), where
a missing promtool fails these tests; elsewhere they are skipped, saying how to install it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Iterator

import promql_parser
import pytest
import redis
import yaml
from prometheus_client.parser import text_string_to_metric_families

from core.broker import NotifyingRedisBroker, message

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
RULES = DEPLOY / "prometheus" / "alerts.yml"
DASHBOARD = DEPLOY / "grafana" / "custody-wallet-service.json"
RUNBOOKS = DEPLOY / "runbooks"

#: Series Prometheus makes itself for every target, not exported by the service.
PROMETHEUS_SERIES = frozenset({"up"})
#: Grafana's variables, replaced by a value of their kind so that a query parses as PromQL.
GRAFANA_VARIABLES = {"$__rate_interval": "5m", "$__interval": "1m", "$__range": "1h"}


def _promtool() -> str:
    found = shutil.which("promtool")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("promtool is missing in CI: scripts/setup installs Debian's prometheus package when CI=true")
    pytest.skip("promtool not found: `apt-get install prometheus` (Debian) gives it; scripts/setup installs it in CI")


def _run_promtool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_promtool(), *args], cwd=DEPLOY / "prometheus", capture_output=True, text=True,
                          timeout=120)


def _rules() -> list[dict[str, Any]]:
    return [rule for group in yaml.safe_load(RULES.read_text())["groups"] for rule in group["rules"]]


def _dashboard() -> dict[str, Any]:
    return json.loads(DASHBOARD.read_text())


def _panels(dashboard: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for panel in dashboard["panels"]:
        yield panel
        yield from panel.get("panels", [])


def _dashboard_queries(dashboard: dict[str, Any]) -> list[str]:
    return [target["expr"] for panel in _panels(dashboard) for target in panel.get("targets", [])]


def _selectors(expr: Any) -> Iterator[Any]:
    """Every vector selector in a parsed PromQL expression."""
    if isinstance(expr, promql_parser.VectorSelector):
        yield expr
    elif isinstance(expr, promql_parser.MatrixSelector):
        yield expr.vector_selector
    elif isinstance(expr, promql_parser.BinaryExpr):
        yield from _selectors(expr.lhs)
        yield from _selectors(expr.rhs)
    elif isinstance(expr, promql_parser.Call):
        for argument in expr.args:
            yield from _selectors(argument)
    elif isinstance(expr, (promql_parser.AggregateExpr, promql_parser.ParenExpr, promql_parser.UnaryExpr,
                           promql_parser.SubqueryExpr)):
        yield from _selectors(expr.expr)


def metric_names(query: str) -> set[str]:
    """The metrics a PromQL query (or a Grafana ``label_values(metric, label)``) reads."""
    found = re.fullmatch(r"label_values\((\w+),\s*\w+\)", query.strip())
    if found:
        return {found.group(1)}
    for variable, value in GRAFANA_VARIABLES.items():
        query = query.replace(variable, value)
    names = {selector.name for selector in _selectors(promql_parser.parse(query))}
    assert None not in names, f"a selector without a metric name: {query}"
    return names


def test_the_alerting_rules_pass_promtool_and_their_unit_tests():
    # Given the rules, their unit tests and the example Prometheus configuration
    # When promtool checks them
    checked = _run_promtool("check", "rules", "alerts.yml")
    tested = _run_promtool("test", "rules", "alerts.test.yml")
    config = _run_promtool("check", "config", "prometheus.yml")
    # Then they are valid, and every alert fires (and stays quiet) as its unit tests say
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert tested.returncode == 0 and "SUCCESS" in tested.stdout, tested.stdout + tested.stderr
    assert config.returncode == 0, config.stdout + config.stderr
    # And every alert has a unit test that expects it to fire
    tests = yaml.safe_load((DEPLOY / "prometheus" / "alerts.test.yml").read_text())["tests"]
    fired = {case["alertname"] for test in tests for case in test["alert_rule_test"] if case["exp_alerts"]}
    assert fired == {rule["alert"] for rule in _rules()}


def test_every_alert_pages_with_a_severity_a_summary_and_a_runbook_that_exists():
    alerts = _rules()
    assert {rule["alert"] for rule in alerts} >= {
        "CustodyOutboxBacklog", "CustodyDeadLetters", "CustodyWebhookDisabled", "CustodyKeyGenerationStuck",
        "CustodySigningStuck", "CustodyNotReady"}
    linked = set()
    for rule in alerts:
        assert rule["labels"]["severity"] in ("critical", "warning"), rule["alert"]
        assert rule["annotations"]["summary"] and rule["annotations"]["description"], rule["alert"]
        runbook = ROOT / rule["annotations"]["runbook_url"]
        assert runbook.parent == RUNBOOKS and runbook.is_file(), rule["alert"]
        assert runbook.read_text().startswith(f"# {rule['alert']}\n"), runbook
        linked.add(runbook.name)
    # And no runbook is left without its alert; the index names them all
    assert linked == {page.name for page in RUNBOOKS.glob("*.md")} - {"README.md"}
    index = (RUNBOOKS / "README.md").read_text()
    assert all(f"({name})" in index for name in linked)


def test_the_dashboard_is_an_importable_grafana_dashboard_on_any_prometheus():
    dashboard = _dashboard()
    # A stable uid and a schema version Grafana migrates from
    assert re.fullmatch(r"[a-z0-9-]{8,40}", dashboard["uid"]) and dashboard["title"]
    assert isinstance(dashboard["schemaVersion"], int) and dashboard["schemaVersion"] >= 36
    assert dashboard.get("id") is None  # Grafana assigns it on import
    # The data source is a template variable of type datasource: it imports on any Prometheus
    variables = {variable["name"]: variable for variable in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource" and variables["datasource"]["query"] == "prometheus"
    ids = []
    for panel in _panels(dashboard):
        ids.append(panel["id"])
        grid = panel["gridPos"]
        assert grid["x"] + grid["w"] <= 24 and grid["h"] > 0, panel["title"]
        if panel["type"] == "row":
            continue
        assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}, panel["title"]
        assert panel["targets"], panel["title"]
        for target in panel["targets"]:
            assert target["datasource"]["uid"] == "${datasource}", panel["title"]
            metric_names(target["expr"])  # parses as PromQL
    assert len(ids) == len(set(ids))
    # And it covers the API, the pools, the outbox, webhooks, signing and key generation
    titles = " ".join(panel["title"] for panel in _panels(dashboard) if panel["type"] == "row").lower()
    for part in ("api", "worker pools", "outbox", "webhooks", "signing", "key generation"):
        assert part in titles, part


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _scrape(url: str) -> set[str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    return {sample.name for family in text_string_to_metric_families(text) for sample in family.samples}


@pytest.fixture
def pool_metrics_url(settings, tmp_path) -> Iterator[tuple[str, str]]:
    """A real worker pool (custody.pool, as `custody worker` runs it) on a namespace of its own,
    its metrics on a loopback port; yields the exposition URL and the namespace."""
    port = _free_port()
    namespace = f"custody-test-pool-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
           "CUSTODY_DATA_DIR": str(settings.data_dir), "CUSTODY_TEST_POOL_NAMESPACE": namespace,
           "dramatiq_prom_host": "127.0.0.1", "dramatiq_prom_port": str(port),
           "dramatiq_prom_db": str(tmp_path / "metrics"),
           # a failing message: one retry soon after, then the dead letters
           "ACTOR_MAX_RETRIES": "1", "ACTOR_MIN_BACKOFF_MS": "10", "ACTOR_MAX_BACKOFF_MS": "50"}
    pool = subprocess.Popen([sys.executable, "-m", "custody.pool", "tests.deploy.pool_app", "--processes", "1",
                             "--threads", "2", "--queues", "companies"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        yield f"http://127.0.0.1:{port}/metrics", namespace
    finally:
        pool.terminate()
        try:
            pool.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(pool.pid, 9)
            pool.wait()
        client = redis.Redis.from_url(settings.redis_url)
        keys = list(client.scan_iter(match=f"{namespace}*"))
        if keys:
            client.delete(*keys)
        client.close()


async def test_every_metric_the_dashboard_and_the_rules_name_is_exported_by_the_running_service(
        client, database, settings, pool_metrics_url, monkeypatch):
    from api import health

    url, namespace = pool_metrics_url
    # Given a worker pool that processed a message, failed one, retried it and dead-lettered it
    pool_broker = NotifyingRedisBroker(url=settings.redis_url, namespace=namespace)
    try:
        pool_broker.enqueue(message("companies.review_application", str(uuid.uuid4())))  # no such command: done
        pool_broker.enqueue(message("companies.review_application"))  # no argument: fails, retried, dead
    finally:
        pool_broker.close()
    wanted = {"dramatiq_messages_total", "dramatiq_message_errors_total", "dramatiq_message_retries_total",
              "dramatiq_message_rejects_total"}
    exported: set[str] = set()
    deadline = time.monotonic() + 90
    while not wanted <= exported:
        assert time.monotonic() < deadline, f"the pool's metrics never showed {sorted(wanted - exported)}"
        time.sleep(0.5)
        try:
            exported = _scrape(url)
        except OSError:
            continue
    # And the API, after serving a request, at a scrape that refreshes its gauges
    monkeypatch.setattr(health, "_gauges_at", 0.0)
    await client.get("/health")
    _, response = await client.get("/metrics")
    exported |= {sample.name for family in text_string_to_metric_families(response.body.decode())
                 for sample in family.samples}
    # When the metrics the dashboard and the rules name are listed
    named: dict[str, set[str]] = {}
    for query in _dashboard_queries(_dashboard()) + [v["definition"] for v in _dashboard()["templating"]["list"]
                                                     if v["type"] == "query"]:
        for name in metric_names(query):
            named.setdefault(name, set()).add("dashboard")
    for rule in _rules():
        for name in metric_names(rule["expr"]):
            named.setdefault(name, set()).add(rule["alert"])
    # Then the service exports every one of them (Prometheus's own `up` aside)
    missing = {name: sorted(where) for name, where in named.items() if name not in exported | PROMETHEUS_SERIES}
    assert not missing, missing
    assert {"custody_ready", "custody_queue_messages", "dramatiq_message_duration_milliseconds_bucket"} <= set(named)
