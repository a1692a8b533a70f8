"""Benchmark: webhook deliveries per second through the real pipeline, against raw aiohttp POSTs.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/webhooks.py [--events 500] [--threads 8] [--concurrency 8]

One run prints:

1. **deliveries/s** and **p50/p99 latency** from event creation (the commit of the unit of work
   that calls ``domain.webhooks.events.emit_event``) to receipt by the receiver, for ``--events`` events
   (at most 5000) to one subscribed webhook. The path is the real one: event row + outbox command
   in PostgreSQL, Redis, the ``webhooks.fan_out`` actor, the ``webhooks.deliver`` actor (claim,
   signed POST, record) on a dramatiq worker with ``--threads`` threads, with the per-webhook
   concurrency limit set to ``--concurrency``. Events are emitted as fast as one loop can commit
   them, so the latency includes queueing behind the burst.
2. **raw POSTs/s**: the same number of POSTs of the same body to the same receiver, straight
   from one aiohttp session with ``--concurrency`` requests in flight: the ceiling of the HTTP
   part alone.
3. the ratio of the two.

It creates (and drops) its own database ``custody_bench_webhooks`` and uses its own Redis
namespace. The receiver runs in a child process. By default the worker's actors run on this
process's event loop (as in the tests), so the figures are those of one worker process. With
``--processes N`` they run instead in N real worker processes on the ``webhooks`` queue alone
(``python -m custody.isolated_worker --queues webhooks --threads T``: what the Procfile's
``webhooks`` line, ``WORKER_PROCESSES=2 WORKER_THREADS=16``, starts, on the benchmark's own Redis
namespace); ``--processes 2 --threads 16`` is the Procfile pool. Their pids are printed so that
``py-spy record --pid PID`` can profile one during the drain. The drain rate is printed both
from the workers' start (their boot included) and from the first receipt.
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
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Named after this run: two checkouts benchmarking at once on one server do not drop each other's.
BENCH_DATABASE = f"custody_bench_webhooks_{os.getpid()}"
MAX_EVENTS = 5000
TARGET_RATE = 1000.0
TARGET_P99_MS = 250.0


# --- the receiver (child process) -------------------------------------------------------------


def _receiver_main(port_pipe: Any) -> None:
    """An aiohttp receiver that records when each event id first arrived (wall clock)."""
    from aiohttp import web

    first_seen: dict[str, float] = {}
    raw_count = 0

    async def hook(request: web.Request) -> web.Response:
        await request.read()
        first_seen.setdefault(request.headers.get("webhook-id", ""), time.time())
        return web.Response(text='{"ok":true}', content_type="application/json")

    async def raw(request: web.Request) -> web.Response:
        nonlocal raw_count
        await request.read()
        raw_count += 1
        return web.Response(text='{"ok":true}', content_type="application/json")

    async def stats(request: web.Request) -> web.Response:
        return web.json_response({"hook": first_seen, "raw": raw_count})

    async def serve() -> None:
        app = web.Application()
        app.router.add_post("/hook", hook)
        app.router.add_post("/raw", raw)
        app.router.add_get("/stats", stats)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port_pipe.send(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]  # noqa: SLF001
        await asyncio.Event().wait()

    asyncio.run(serve())


async def _stats(session: Any, base: str) -> dict[str, Any]:
    async with session.get(f"{base}/stats") as response:
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


async def run(event_count: int, threads: int, concurrency: int, worker_timeout_ms: int, processes: int = 0,
              live_rate_target: float = 0.0) -> None:
    import aiohttp
    import dramatiq
    from _support import drop_database, flush_namespace, recreate_database

    from core.settings import Settings, configure, get_settings
    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain import companies, workspaces
    from domain.webhooks import events, management
    from models.webhooks import WebhookDelivery

    env = get_settings()
    if not (env.database_url and env.redis_url):
        raise SystemExit("bench/webhooks.py needs DATABASE_URL and REDIS_URL")
    # A pool big enough for every worker thread plus the emitting loop.
    database_url = await recreate_database(env.database_url, BENCH_DATABASE) + f"?maxsize={threads + 4}"
    data_dir = Path(tempfile.mkdtemp(prefix="custody-bench-"))
    namespace = f"custody-bench-webhooks-{os.getpid()}"
    settings = configure(Settings(
        database_url=database_url, redis_url=env.redis_url, environment="test", base_url="http://bench",
        data_dir=data_dir, webhook_allow_loopback=True,
        webhook_concurrency_per_endpoint=concurrency))
    await migrate(settings)
    await open_database(settings)
    broker = setup_broker(settings, namespace=namespace, event_loop=asyncio.get_running_loop())
    worker = dramatiq.Worker(broker, worker_threads=threads, worker_timeout=worker_timeout_ms)
    children: list[subprocess.Popen] = []
    child_env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
                 "DATABASE_URL": database_url, "REDIS_URL": env.redis_url, "CUSTODY_ENV": "test",
                 "CUSTODY_BASE_URL": "http://bench", "CUSTODY_DATA_DIR": str(data_dir),
                 "WEBHOOK_ALLOW_LOOPBACK": "true", "WEBHOOK_CONCURRENCY_PER_ENDPOINT": str(concurrency),
                 "LOG_LEVEL": "WARNING"}

    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    receiver = context.Process(target=_receiver_main, args=(child,), daemon=True)
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
        async with unit_of_work():
            webhook, _ = await management.create_webhook(principal=principal, workspace_id=workspace.id,
                                                       url=f"{base}/hook", event_types=["transaction.*"])
        data = {"transaction_id": "0" * 36, "status": "broadcast", "amount": "123456789",
                "from": {"address": "tb1q" + "x" * 38, "balance": "1000000000", "block_height": 100},
                "to": {"address": "tb1q" + "y" * 38, "balance": "2000000000", "block_height": 100},
                "balance_version": 42}

        async def emit(count: int, rate: float = 0.0) -> dict[str, float]:
            """Emit ``count`` events, one unit of work each (``rate`` a second at most when given);
            their ids and commit times."""
            created: dict[str, float] = {}
            paced_from = time.monotonic()
            for index in range(count):
                if rate:
                    await asyncio.sleep(max(paced_from + index / rate - time.monotonic(), 0))
                async with unit_of_work():
                    event = await events.emit_event(workspace_id=workspace.id, event_type="transaction.updated",
                                                      data=data)
                created[str(event.id)] = time.time()
            return created

        async def received_all(session: Any, expected: int) -> dict[str, float]:
            deadline = time.monotonic() + 300
            while len((stats := await _stats(session, base))["hook"]) < expected:
                if time.monotonic() > deadline:
                    raise SystemExit(f"only {len(stats['hook'])} of {expected} events arrived within 300 s")
                await asyncio.sleep(0.02)
            return stats["hook"]

        async with aiohttp.ClientSession() as session:
            # 1. Backlog: events committed while no worker runs, then one worker drains them
            backlog = await emit(event_count)
            if processes:
                for _ in range(processes):
                    children.append(subprocess.Popen(
                        [sys.executable, "-m", "custody.isolated_worker", "--namespace", namespace, "--queues",
                         "webhooks", "--threads", str(threads)], env=child_env, start_new_session=True))
                # They consume as soon as they are up: their boot is in ``backlog_rate``, not ``steady_rate``.
                print(f"worker pids: {' '.join(str(c.pid) for c in children)}", flush=True)
            drain_start = time.time()
            if not processes:
                worker.start()
                started = True
            received = await received_all(session, event_count)
            backlog_rate = event_count / (max(received[e] for e in backlog) - drain_start)
            # From the first receipt on: without the worker processes' boot (imports, pool), which
            # --processes counts in ``backlog_rate`` because they start after the backlog is there.
            first = min(received[e] for e in backlog)
            steady_rate = (event_count - 1) / max(max(received[e] for e in backlog) - first, 1e-9)
            boot = first - drain_start

            # 2. Live: the worker delivers while events are being emitted at --live-rate a second
            #    (0: as fast as one loop commits them)
            live_start = time.time()
            live = await emit(event_count, live_rate_target)
            emitted = time.time()
            received = await received_all(session, 2 * event_count)
            live_rate = event_count / (max(received[e] for e in live) - live_start)
            latencies = [received[event_id] - at for event_id, at in live.items()]
            deliveries = WebhookDelivery.filter(webhook_id=webhook.id)
            failed = await deliveries.exclude(status="succeeded").count()
            attempts = sum(await deliveries.values_list("attempt_count", flat=True))

            # 3. Raw aiohttp POSTs of the same body to the same receiver
            body = (await WebhookDelivery.filter(webhook_id=webhook.id).first().prefetch_related("event")).event.payload
            limit = asyncio.Semaphore(concurrency)

            async def post_once() -> None:
                async with limit:
                    async with session.post(f"{base}/raw", data=body.encode(),
                                            headers={"Content-Type": "application/json"}) as response:
                        await response.read()
                        assert response.status == 200

            raw_start = time.perf_counter()
            await asyncio.gather(*(post_once() for _ in range(event_count)))
            raw_rate = event_count / (time.perf_counter() - raw_start)

        where = f"{processes} worker process(es)" if processes else "one worker process (in this process)"
        print(f"webhook deliveries: {event_count} events per phase, {where} with {threads} threads, "
              f"per-webhook concurrency {concurrency}, worker idle poll up to {worker_timeout_ms} ms, "
              f"body {len(body)} bytes")
        print(f"  backlog drained: {backlog_rate:.1f} deliveries/s from the worker start; {steady_rate:.1f} "
              f"deliveries/s from the first receipt ({boot:.2f} s after the start)")
        print(f"  live: {live_rate:.1f} deliveries/s while emitting {event_count / (emitted - live_start):.1f} events/s")
        print(f"  latency event creation -> receipt (live): p50 {statistics.median(latencies) * 1000:.0f} ms, "
              f"p99 {_percentile(latencies, 0.99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms")
        print(f"  attempts {attempts} for {2 * event_count} deliveries, not succeeded {failed}")
        print(f"raw aiohttp POSTs/s to the same receiver ({concurrency} in flight): {raw_rate:.1f}")
        print(f"ratio backlog deliveries/s : raw POSTs/s = {backlog_rate / raw_rate:.3f} "
              f"(1 : {raw_rate / backlog_rate:.1f})")
        p99_ms = _percentile(latencies, 0.99) * 1000
        print(f"targets: >= {TARGET_RATE:.0f} deliveries/s: ratio {backlog_rate / TARGET_RATE:.2f} "
              f"(from the first receipt {steady_rate / TARGET_RATE:.2f}); "
              f"p99 <= {TARGET_P99_MS:.0f} ms while keeping up: ratio {p99_ms / TARGET_P99_MS:.2f} "
              f"(live phase kept up: {live_rate >= 0.95 * event_count / (emitted - live_start)})")
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
        flush_namespace(settings.redis_url, namespace)  # type: ignore[arg-type]
        await close_database()
        await drop_database(env.database_url, BENCH_DATABASE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=500, help=f"events to deliver (1 to {MAX_EVENTS})")
    parser.add_argument("--threads", type=int, default=8, help="worker threads")
    parser.add_argument("--concurrency", type=int, default=8, help="per-webhook concurrency limit")
    parser.add_argument("--worker-timeout-ms", type=int, default=1000,
                        help="dramatiq worker idle poll cap (1000 = the `custody worker` default)")
    parser.add_argument("--live-rate", type=float, default=0.0,
                        help="events/s emitted in the live phase (0: as fast as one loop commits; the target "
                             "is stated at 100)")
    parser.add_argument("--processes", type=int, default=0,
                        help="real worker processes on the webhooks queue (0: the actors run in this process)")
    args = parser.parse_args()
    if not 1 <= args.events <= MAX_EVENTS:
        parser.error(f"--events must be between 1 and {MAX_EVENTS}")
    import logging

    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(args.events, args.threads, args.concurrency, args.worker_timeout_ms, args.processes,
                    args.live_rate))


if __name__ == "__main__":
    main()
