"""Benchmark: webhook deliveries per second through the real pipeline, against raw aiohttp POSTs.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/webhooks.py [--events 500] [--webhooks 1] [--live-rate 100]

The defaults are the shipped settings: the per-webhook concurrency limit is the settings'
default (``WEBHOOK_CONCURRENCY_PER_ENDPOINT``), and the worker pool is the Procfile's
``webhooks`` line (``WORKER_PROCESSES`` processes of ``WORKER_THREADS`` threads on the
``webhooks`` queue alone, ``python -m custody.isolated_worker``: what ``custody worker``
starts, on the benchmark's own Redis namespace). ``--processes 0`` runs the actors on this
process's event loop instead (as in the tests). Every event goes to ``--webhooks`` webhooks of
one workspace, each at its own URL of one receiver (a child process); rates count deliveries.

One run prints:

1. **backlog drained**: ``--events`` events (at most 5000) committed while the booted, warmed-up
   workers are idle (their fan-out commands are held back), then woken by one message: the
   deliveries/s from that wake-up to the last receipt. The path is the real one: event row +
   outbox command in PostgreSQL, Redis, ``webhooks.fan_out``, the drain (claim, signed POST,
   record) under the per-webhook concurrency limit.
2. **live**: ``--events`` more events emitted at ``--live-rate`` events/s (each committed by its
   own unit of work, on time, overlapping as a busy API's would), delivered while they come:
   the delivery rate, whether it kept up (the last delivery within 1 s of the last event's
   commit: no backlog built), and the latency from
   each event's commit to its receipt (p50, p99, max over every delivery).
3. **raw POSTs/s**: as many POSTs of the same body to the same receiver, straight from one
   aiohttp session with as many in flight as the webhooks' limits allow together
   (concurrency x webhooks): the ceiling of the HTTP part alone.
4. the ratio of 1 to 3, and the targets of issue 20 point 4 as ratios (>= 0.25; p99 <= 250 ms
   while keeping up with 100 events/s).

It creates (and drops) its own database and uses its own Redis namespace. The worker pids are
printed so that ``py-spy record --pid PID`` can profile one. ``--stages`` also prints where the
live latency goes (commit -> fan-out -> claim -> send -> receipt), from the rows' timestamps.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Named after this run: two checkouts benchmarking at once on one server do not drop each other's.
BENCH_DATABASE = f"custody_bench_webhooks_{os.getpid()}"
MAX_EVENTS = 5000
#: Issue 20 point 4: the backlog drain against the raw POST rate, and the live p99 at 100 events/s.
TARGET_RATIO = 0.25
TARGET_P99_MS = 250.0
TARGET_LIVE_RATE = 100.0
def shipped_pool() -> tuple[int, int]:
    """(processes, threads) of the Procfile's ``webhooks`` worker pool."""
    from chaos import procfile

    pools = procfile()
    if "webhooks" not in pools:
        raise SystemExit("the Procfile has no webhooks line")
    env, _ = pools["webhooks"]
    return int(env.get("WORKER_PROCESSES", 1)), int(env.get("WORKER_THREADS", 8))


def shipped_concurrency() -> int:
    from core.settings import Settings

    return int(Settings.model_fields["webhook_concurrency_per_endpoint"].default)


# --- the receiver (child process) -------------------------------------------------------------


def _receiver_main(port_pipe: Any) -> None:
    """An aiohttp receiver that records when each event id first arrived (wall clock)."""
    from aiohttp import web

    first_seen: dict[str, float] = {}
    raw_count = 0

    async def hook(request: web.Request) -> web.Response:
        await request.read()
        # Keyed by webhook (its URL) and event: one event reaches each webhook under one webhook-id.
        first_seen.setdefault(f"{request.match_info['n']}/{request.headers.get('webhook-id', '')}", time.time())
        return web.Response(text='{"ok":true}', content_type="application/json")

    async def raw(request: web.Request) -> web.Response:
        nonlocal raw_count
        await request.read()
        raw_count += 1
        return web.Response(text='{"ok":true}', content_type="application/json")

    async def stats(request: web.Request) -> web.Response:
        if request.query.get("full"):
            return web.json_response({"hook": first_seen, "raw": raw_count})
        return web.json_response({"count": len(first_seen), "raw": raw_count})

    async def serve() -> None:
        app = web.Application()
        app.router.add_post("/hook/{n}", hook)
        app.router.add_post("/raw", raw)
        app.router.add_get("/stats", stats)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port_pipe.send(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]  # noqa: SLF001
        await asyncio.Event().wait()

    asyncio.run(serve())


async def _stats(session: Any, base: str, *, full: bool = False) -> dict[str, Any]:
    async with session.get(f"{base}/stats" + ("?full=1" if full else "")) as response:
        return await response.json()


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


# --- the run ------------------------------------------------------------------------------------


async def _principal(workspace_id: Any) -> Any:
    import base64
    import uuid

    from nacl.signing import SigningKey

    from core import clock
    from core.unit_of_work import unit_of_work
    from domain import auth, users

    key = SigningKey.generate()
    async with unit_of_work():
        member = await users.create_api_user(principal=None, workspace_id=workspace_id, name="bench", role="ADMIN",
                                             public_key=bytes(key.verify_key))
        data = json.dumps({"client_type": "user", "client_id": str(member.user.id),
                           "timestamp": int(clock.now().timestamp()), "nonce": uuid.uuid4().hex})
        issued = await auth.issue_access_token(data=data,
                                               signature=base64.b64encode(key.sign(data.encode()).signature).decode())
    return await auth.authenticate(issued.access_token)


class _HeldBack:
    """A broker that sends nothing: the backlog's fan-out commands wait in the outbox."""

    def enqueue(self, message: Any, *, delay: int | None = None) -> Any:
        return message


async def run(*, event_count: int, threads: int, concurrency: int, processes: int, webhook_count: int,
              live_rate: float, stages: bool) -> None:
    import aiohttp
    import dramatiq
    from _support import drop_database, flush_namespace, recreate_database, scratch_data_dir

    from core.settings import Settings, configure, get_settings
    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain import companies, workspaces
    from domain.webhooks import events, management
    from models.webhooks import WebhookDelivery, WebhookEvent

    env = get_settings()
    if not (env.database_url and env.redis_url):
        raise SystemExit("bench/webhooks.py needs DATABASE_URL and REDIS_URL")
    # A pool big enough for every worker thread, and for the live phase's overlapping commits.
    database_url = await recreate_database(env.database_url, BENCH_DATABASE) + f"?maxsize={max(threads, 16) + 4}"
    data_dir = scratch_data_dir()
    namespace = f"custody-bench-webhooks-{os.getpid()}"
    settings = configure(Settings(
        database_url=database_url, redis_url=env.redis_url, environment="test", base_url="http://bench",
        data_dir=data_dir, webhook_allow_loopback=True,
        webhook_concurrency_per_endpoint=concurrency))
    await migrate(settings)
    await open_database(settings)
    broker = setup_broker(settings, namespace=namespace, event_loop=asyncio.get_running_loop())
    worker = dramatiq.Worker(broker, worker_threads=threads, worker_timeout=1000)
    children: list[subprocess.Popen] = []
    child_env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
                 "DATABASE_URL": database_url, "REDIS_URL": env.redis_url, "CUSTODY_ENV": "test",
                 "CUSTODY_BASE_URL": "http://bench", "CUSTODY_DATA_DIR": str(data_dir),
                 "WEBHOOK_ALLOW_LOOPBACK": "true", "WEBHOOK_CONCURRENCY_PER_ENDPOINT": str(concurrency),
                 "LOG_LEVEL": "WARNING"}

    context = multiprocessing.get_context("spawn")
    parent, child_end = context.Pipe()
    receiver = context.Process(target=_receiver_main, args=(child_end,), daemon=True)
    receiver.start()
    port = await asyncio.to_thread(parent.recv)
    base = f"http://127.0.0.1:{port}"
    started = False
    try:
        async with unit_of_work():
            company = await companies.create_company(principal=None, name="Bench", email="bench@example.com")
            workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name="Bench",
                                                          network_type="testnet")
        principal = await _principal(workspace.id)
        webhook_ids = []
        for n in range(webhook_count):
            async with unit_of_work():
                webhook, _ = await management.create_webhook(principal=principal, workspace_id=workspace.id,
                                                           url=f"{base}/hook/{n}", event_types=["transaction.*"])
            webhook_ids.append(webhook.id)
        data = {"transaction_id": "0" * 36, "status": "broadcast", "amount": "123456789",
                "from": {"address": "tb1q" + "x" * 38, "balance": "1000000000", "block_height": 100},
                "to": {"address": "tb1q" + "y" * 38, "balance": "2000000000", "block_height": 100},
                "balance_version": 42}

        async def emit_one(target: Any = None) -> tuple[str, float]:
            """One event in its own unit of work; its id and commit time."""
            async with unit_of_work(broker=target):
                event = await events.emit_event(workspace_id=workspace.id, event_type="transaction.updated",
                                                data=data)
            return str(event.id), time.time()

        def keys(event_ids: Any) -> list[str]:
            return [f"{n}/{event_id}" for event_id in event_ids for n in range(webhook_count)]

        async def received_all(session: Any, expected: int) -> dict[str, float]:
            deadline = time.monotonic() + 300
            while (stats := await _stats(session, base))["count"] < expected:
                if time.monotonic() > deadline:
                    raise SystemExit(f"only {stats['count']} of {expected} deliveries arrived within 300 s")
                await asyncio.sleep(0.05)
            return (await _stats(session, base, full=True))["hook"]

        async with aiohttp.ClientSession() as session:
            # 0. The workers boot, and one event goes through them (connections, sessions, caches)
            if processes:
                for _ in range(processes):
                    children.append(subprocess.Popen(
                        [sys.executable, "-m", "custody.isolated_worker", "--namespace", namespace, "--queues",
                         "webhooks", "--threads", str(threads)], env=child_env, start_new_session=True))
                print(f"worker pids: {' '.join(str(c.pid) for c in children)}", flush=True)
            else:
                worker.start()
                started = True
            await emit_one()
            expected = webhook_count
            await received_all(session, expected)

            # 1. Backlog: events committed while the workers idle, their fan-out held back; the
            #    last one's commit wakes the fan-out, which takes every pending command.
            held, writers = _HeldBack(), asyncio.Semaphore(8)

            async def emit_held() -> tuple[str, float]:
                async with writers:  # 8 commits at once: a backlog of thousands in seconds
                    return await emit_one(held)

            backlog = dict(await asyncio.gather(*(emit_held() for _ in range(event_count - 1))))
            drain_start = time.time()
            last_id, _ = await emit_one()
            backlog[last_id] = drain_start
            expected += event_count * webhook_count
            received = await received_all(session, expected)
            backlog_keys = keys(backlog)
            deliveries = len(backlog_keys)
            first = min(received[k] for k in backlog_keys)
            last = max(received[k] for k in backlog_keys)
            backlog_rate = deliveries / (last - drain_start)
            sample = await WebhookDelivery.filter(webhook_id=webhook_ids[0]).first().prefetch_related("event")
            assert sample is not None, "the backlog was delivered, so it has deliveries"
            body = sample.event.payload
            # Printed as soon as measured (a runner under a time limit keeps what came out).
            where = f"{processes} worker process(es)" if processes else "one worker (in this process)"
            print(f"webhook deliveries: {event_count} events per phase to {webhook_count} webhook(s), {where} with "
                  f"{threads} threads, per-webhook concurrency {concurrency}, body {len(body)} bytes", flush=True)
            print(f"  backlog drained: {backlog_rate:.1f} deliveries/s from the wake-up ({deliveries} deliveries; "
                  f"first receipt {(first - drain_start) * 1000:.0f} ms after it)", flush=True)

            # 2. Live: events at ``live_rate`` a second, each committed on time by its own task
            live_start = time.monotonic()
            live_wall = time.time()

            async def on_time(index: int) -> tuple[str, float]:
                await asyncio.sleep(max(live_start + index / live_rate - time.monotonic(), 0))
                return await emit_one()

            live = dict(await asyncio.gather(*(on_time(i) for i in range(event_count))))
            emitted = time.time()
            expected += event_count * webhook_count
            received = await received_all(session, expected)
            live_keys = keys(live)
            emit_rate = event_count / (emitted - live_wall)
            live_rate_done = len(live_keys) / (max(received[k] for k in live_keys) - live_wall)
            # From each event's creation (its row's created_at, the clock inside the emitting
            # unit of work: its commit is part of the latency) to its receipt.
            created = {str(event_id): at.timestamp() for event_id, at in await WebhookEvent.filter(
                id__in=list(live)).values_list("id", "created_at")}
            latencies = [received[k] - created[k.split("/", 1)[1]] for k in live_keys]
            # Kept up: no backlog built while emitting, i.e. the last delivery arrived within a
            # second of the last event's commit (a queue growing at the end shows far more).
            behind = max(received[k] for k in live_keys) - emitted
            kept_up = behind <= 1.0
            stage_lines = await _stages(created, received) if stages else []
            p99_ms = _percentile(latencies, 0.99) * 1000
            print(f"  live: {live_rate_done:.1f} deliveries/s while emitting {emit_rate:.1f} events/s "
                  f"({emit_rate * webhook_count:.1f} deliveries/s); last receipt {behind * 1000:.0f} ms after the "
                  f"last commit; kept up: {kept_up}", flush=True)
            print(f"  latency event -> receipt (live): p50 {statistics.median(latencies) * 1000:.0f} ms, "
                  f"p99 {p99_ms:.0f} ms, max {max(latencies) * 1000:.0f} ms", flush=True)
            for line in stage_lines:
                print(line, flush=True)
            all_deliveries = WebhookDelivery.filter(webhook_id__in=webhook_ids)
            failed = await all_deliveries.exclude(status="succeeded").count()
            attempts = sum(int(n) for n in await all_deliveries.values_list("attempt_count", flat=True))  # type: ignore[call-overload]
            total = await all_deliveries.count()

            # 3. Raw aiohttp POSTs of the same body to the same receiver, as many in flight as allowed
            in_flight = concurrency * webhook_count
            limit = asyncio.Semaphore(in_flight)

            async def post_once() -> None:
                async with limit:
                    async with session.post(f"{base}/raw", data=body.encode(),
                                            headers={"Content-Type": "application/json"}) as response:
                        await response.read()
                        assert response.status == 200

            raw_start = time.perf_counter()
            await asyncio.gather(*(post_once() for _ in range(deliveries)))
            raw_rate = deliveries / (time.perf_counter() - raw_start)

        ratio = backlog_rate / raw_rate
        print(f"  attempts {attempts} for {total} deliveries, not succeeded {failed}", flush=True)
        print(f"raw aiohttp POSTs/s to the same receiver ({in_flight} in flight): {raw_rate:.1f}", flush=True)
        print(f"ratio backlog deliveries/s : raw POSTs/s = {ratio:.3f} (1 : {raw_rate / backlog_rate:.1f})", flush=True)
        print(f"targets: backlog >= {TARGET_RATIO} x raw: {ratio / TARGET_RATIO:.2f} of the target; "
              f"p99 <= {TARGET_P99_MS:.0f} ms while keeping up with {TARGET_LIVE_RATE:.0f} events/s: "
              f"p99 at {p99_ms / TARGET_P99_MS:.2f} of the limit, at {emit_rate:.1f} events/s, kept up: {kept_up}", flush=True)
    finally:
        from domain.webhooks.sender import close_sessions

        if started:
            await asyncio.to_thread(worker.stop, 5000)
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
        await close_sessions()
        broker.close()
        receiver.terminate()
        flush_namespace(settings.redis_url, namespace)
        await close_database()
        await drop_database(env.database_url, BENCH_DATABASE)


_STAGES = """
SELECT e.id::text AS event_id, w.url, extract(epoch FROM d.created_at) AS fanned_out,
       extract(epoch FROM d.last_attempt_at) AS sent
FROM webhook_events AS e
JOIN webhook_deliveries AS d ON d.event_id = e.id
JOIN webhooks AS w ON w.id = d.webhook_id
WHERE e.id::text = ANY($1)
"""


async def _stages(created: dict[str, float], received: dict[str, float]) -> list[str]:
    """Where the live latency goes, from the rows' timestamps (worker clocks: same machine)."""
    from tortoise import connections

    rows = await connections.get("default").execute_query_dict(_STAGES, [list(created)])
    spans: dict[str, list[float]] = {"event -> fan-out": [], "fan-out -> send": [], "send -> receipt": []}
    for row in rows:
        got = received[f"{row['url'].rsplit('/', 1)[1]}/{row['event_id']}"]
        spans["event -> fan-out"].append(float(row["fanned_out"]) - created[row["event_id"]])
        spans["fan-out -> send"].append(float(row["sent"]) - float(row["fanned_out"]))
        spans["send -> receipt"].append(got - float(row["sent"]))
    return [f"  stage {name}: p50 {statistics.median(values) * 1000:.0f} ms, "
            f"p99 {_percentile(values, 0.99) * 1000:.0f} ms" for name, values in spans.items() if values]


def main() -> None:
    processes, threads = shipped_pool()
    concurrency = shipped_concurrency()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=500, help=f"events per phase (1 to {MAX_EVENTS})")
    parser.add_argument("--webhooks", type=int, default=1, help="webhooks each event is delivered to")
    parser.add_argument("--threads", type=int, default=threads,
                        help=f"threads per worker process (default {threads}: the Procfile's webhooks pool)")
    parser.add_argument("--processes", type=int, default=processes,
                        help=f"worker processes on the webhooks queue (default {processes}: the Procfile's "
                             "webhooks pool; 0: the actors run in this process)")
    parser.add_argument("--concurrency", type=int, default=concurrency,
                        help=f"per-webhook concurrency limit (default {concurrency}: the shipped setting)")
    parser.add_argument("--live-rate", type=float, default=TARGET_LIVE_RATE,
                        help=f"events/s emitted in the live phase (default {TARGET_LIVE_RATE:g}: the target's)")
    parser.add_argument("--stages", action="store_true", help="also print where the live latency goes")
    args = parser.parse_args()
    if not 2 <= args.events <= MAX_EVENTS:
        parser.error(f"--events must be between 2 and {MAX_EVENTS}")
    if args.webhooks < 1 or args.concurrency < 1 or args.threads < 1 or args.processes < 0 or args.live_rate <= 0:
        parser.error("--webhooks, --concurrency, --threads and --live-rate must be positive, --processes >= 0")
    import logging

    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(event_count=args.events, threads=args.threads, concurrency=args.concurrency,
                    processes=args.processes, webhook_count=args.webhooks, live_rate=args.live_rate,
                    stages=args.stages))


if __name__ == "__main__":
    main()
