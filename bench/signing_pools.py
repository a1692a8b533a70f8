"""Benchmark: threshold signatures through the real signer processes (the Procfile's pools).

    .venv/bin/python bench/signing_pools.py [--sequential 30] [--concurrent 300] [--vaults 8] \\
        [--signer-processes 1]

Needs nothing running: like bench/chaos.py it starts its own PostgreSQL (with
``pg_stat_statements``, to count every statement of every process) and Redis, then the Procfile's
``worker``, ``signer1`` and ``signer2`` pools as they are (``--signer-processes 2`` runs each
signer with two worker processes, for the scaling figure). Keys come from the DKG with an
in-process co-signer. It prints:

1. **one at a time**: ``--sequential`` signatures, each requested (``sessions.request_signature``
   in a unit of work, as the withdrawal pipeline does) once the previous one completed; p50/p99
   from the request to the completed session row (polled every 2 ms on a separate role, whose
   statements are not counted). Target p50 <= 100 ms.
2. **throughput**: ``--concurrent`` signatures requested at once over ``--vaults`` vaults; signatures
   per second until the last completed. Target >= 150/s, and >= 0.4x the in-process FROST rate
   of the same run (bench/signing.py ``frost_in_process``: both signers' rounds and the
   aggregation in this process, no database), measured before the pools start.
3. **SQL statements per signature** in every process (pg_stat_statements, BEGIN/COMMIT included)
   during (2), and the statements that make most of them. Target <= 20.

Each figure is printed with its ratio to the target.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TARGET_RATE = 150.0
TARGET_OF_IN_PROCESS = 0.4
TARGET_P50_MS = 100.0
TARGET_STATEMENTS = 20.0
OBSERVER = "bench_observer"
#: Units of work requesting signatures side by side in the throughput phase.
REQUESTERS = 4


def start_profilers(pools: dict[str, Any], folder: str) -> list[tuple[str, Path, Any]]:
    """py-spy (``pip install py-spy``) on every worker process of the pools, until stopped."""
    import subprocess

    Path(folder).mkdir(parents=True, exist_ok=True)
    started = []
    for name, pool in pools.items():
        for pid in pool.pids()[1:]:  # the worker processes, not the pool's main process
            path = Path(folder) / f"{name}-{pid}.txt"
            process = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p", str(pid),
                                        "-f", "raw", "-o", str(path), "-r", "50", "--nonblocking"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            started.append((name, path, process))
    time.sleep(1)
    return started


def stop_profilers(profilers: list[tuple[str, Path, Any]]) -> None:
    import signal

    for _, _, process in profilers:
        process.send_signal(signal.SIGINT)
    for _, _, process in profilers:
        process.wait(timeout=30)


def print_profile(name: str, path: Path, top: int) -> None:
    """Where a process spent its samples: the share of samples each function appears in."""
    from collections import Counter

    if not path.exists():
        print(f"  profile of {name}: none written")
        return
    inclusive: Counter = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        for frame in {f.split(" (")[0] for f in stack.split(";")}:
            inclusive[frame] += int(count)
    idle = sum(c for f, c in inclusive.items() if f in ("select", "_worker", "wait", "epoll_wait")) if total else 0
    print(f"  profile of {name} ({path.name}, {total} samples, idle-looking {idle / max(total, 1):.0%}): "
          "functions by share of samples")
    for frame, count in inclusive.most_common(top):
        print(f"    {count / total:6.1%}  {frame}")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


async def run(args: argparse.Namespace) -> None:
    import asyncpg
    from chaos import Postgres, Redis, make_pools

    from core.settings import Settings, configure

    folder = Path(tempfile.mkdtemp(prefix="custody-signing-"))
    logs = folder / "logs"
    logs.mkdir()
    postgres = Postgres(folder)
    admin = await asyncpg.connect(postgres.url)
    try:
        await admin.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        await admin.execute("ALTER SYSTEM SET pg_stat_statements.track_utility = on")
    finally:
        await admin.close()
    postgres.restart()
    admin = await asyncpg.connect(postgres.url)
    await admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await admin.execute(f"DROP ROLE IF EXISTS {OBSERVER}; CREATE ROLE {OBSERVER} LOGIN; "
                        f"GRANT pg_read_all_data TO {OBSERVER}")
    observer_oid = await admin.fetchval("SELECT oid FROM pg_roles WHERE rolname = $1", OBSERVER)
    observer_url = postgres.url.replace("postgresql://postgres", f"postgresql://{OBSERVER}", 1).replace(
        "postgres://postgres", f"postgres://{OBSERVER}", 1)
    redis_server = Redis(folder / "redis")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": postgres.url, "REDIS_URL": redis_server.url,
           "CUSTODY_ENV": "development", "CUSTODY_DATA_DIR": str(folder / "data"), "LOG_LEVEL": "WARNING"}
    for name in ("SIGNER_1_SHARE_KEY", "SIGNER_2_SHARE_KEY", "SIGNER_PARTICIPANT", "WORKER_QUEUES"):
        env.pop(name, None)
    os.environ.update({k: v for k, v in env.items() if k != "PYTHONPATH"})
    settings = configure(Settings.from_env())
    from chaos import setup_workspace
    from signing import frost_in_process

    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain.signing import sessions

    in_process = frost_in_process(args.frost_seconds)
    pools = make_pools(env, logs, names=("worker", "signer1", "signer2"))
    for name in ("signer1", "signer2"):
        if args.signer_processes != 1:
            pools[name].command += ["--processes", str(args.signer_processes)]
        if args.signer_threads:
            pools[name].command += ["--threads", str(args.signer_threads)]
    observer = None
    broker = None
    try:
        await migrate(settings)
        await open_database(settings)
        broker = setup_broker(settings, worker=False)
        for pool in pools.values():
            pool.start()
        workspace, vault_ids, _ = await setup_workspace(settings, args.vaults, None, time.monotonic() + 300,
                                                        fund=False)
        observer = await asyncpg.connect(observer_url)

        async def request(index: int, label: str) -> Any:
            async with unit_of_work():
                return (await sessions.request_signature(
                    workspace_id=workspace.id, vault_id=vault_ids[index % len(vault_ids)],
                    message=f"{label} {index}".encode(), purpose="bench")).id

        # 1. One at a time
        for index in range(3):  # warm up (first messages of each actor, connections)
            session_id = await request(index, "warm")
            while await observer.fetchval("SELECT status FROM signing_sessions WHERE id = $1", session_id) in (
                    "round1", "round2"):
                await asyncio.sleep(0.002)
        # The signers refill their nonce stocks once a request found them empty (the warm-up's)
        from domain.signing.nonces import LOW_WATER

        refill_deadline = time.monotonic() + 120
        while min([r["n"] for r in await observer.fetch(
                "SELECT holder, count(*) AS n FROM single_use_stock WHERE state = 'available' GROUP BY holder")]
                or [0]) < LOW_WATER and time.monotonic() < refill_deadline:
            await asyncio.sleep(0.1)
        latencies = []
        for index in range(args.sequential):
            start = time.perf_counter()
            session_id = await request(index, "sequential")
            while (status := await observer.fetchval("SELECT status FROM signing_sessions WHERE id = $1",
                                                     session_id)) in ("round1", "round2"):
                await asyncio.sleep(0.002)
            if status != "completed":
                raise SystemExit(f"a signing session ended {status}")
            latencies.append(time.perf_counter() - start)

        # 2. and 3. Many in flight, counting every statement of every process
        profilers = start_profilers(pools, args.profile) if args.profile else []
        await admin.execute("SELECT pg_stat_statements_reset()")
        start = time.time()
        ids: list = []
        # In units of work of 50 requests each, REQUESTERS of them at once (as the withdrawal
        # workers' sign steps request side by side): this process must not be what limits the figure
        requesters = asyncio.Semaphore(REQUESTERS)

        async def unit(first: int) -> None:
            async with requesters, unit_of_work():
                for index in range(first, min(args.concurrent, first + 50)):
                    ids.append((await sessions.request_signature(
                        workspace_id=workspace.id, vault_id=vault_ids[index % len(vault_ids)],
                        message=f"concurrent {index}".encode(), purpose="bench")).id)

        await asyncio.gather(*(unit(first) for first in range(0, args.concurrent, 50)))
        requested_in = time.time() - start
        deadline = time.monotonic() + 600
        while await observer.fetchval("SELECT count(*) FROM signing_sessions WHERE id = ANY($1::uuid[]) "
                                      "AND status IN ('round1', 'round2')", ids):
            if time.monotonic() > deadline:
                raise SystemExit("the signatures did not complete within 600 s")
            await asyncio.sleep(0.01)
        last = await observer.fetchval("SELECT max(completed_at) FROM signing_sessions WHERE id = ANY($1::uuid[])",
                                       ids)
        failed = await observer.fetchval("SELECT count(*) FROM signing_sessions WHERE id = ANY($1::uuid[]) "
                                         "AND status <> 'completed'", ids)
        rate = args.concurrent / (last.timestamp() - start)
        stop_profilers(profilers)
        rows = await admin.fetch(
            "SELECT query, calls FROM pg_stat_statements WHERE userid <> $1 AND dbid = "
            "(SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC", observer_oid)
        statements = sum(r["calls"] for r in rows) / args.concurrent

        p50 = statistics.median(latencies) * 1000
        print(f"signing through the real processes: Procfile pools worker, signer1, signer2 "
              f"(signer processes {args.signer_processes} each, threads "
              f"{args.signer_threads or 'as the Procfile'}), {args.vaults} vaults")
        print(f"  one at a time ({args.sequential}): p50 {p50:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms"
              f"  -> target p50 <= {TARGET_P50_MS:.0f} ms: ratio {p50 / TARGET_P50_MS:.2f}")
        print(f"  {args.concurrent} in flight: {rate:.1f} signatures/s (requested in {requested_in:.1f} s, "
              f"{failed} not completed)  -> target >= {TARGET_RATE:.0f}/s: ratio {rate / TARGET_RATE:.2f}")
        print(f"  in-process FROST 2-of-3 in this run (bench/signing.py, one process, no database): "
              f"{in_process:.1f} signatures/s; through the processes {rate / in_process:.2f}x  -> target >= "
              f"{TARGET_OF_IN_PROCESS}x: ratio {rate / in_process / TARGET_OF_IN_PROCESS:.2f}")
        print(f"  SQL statements per signature, all processes: {statements:.1f}  -> target <= "
              f"{TARGET_STATEMENTS:.0f}: ratio {statements / TARGET_STATEMENTS:.2f}")
        print("  most frequent statements (per signature):")
        for row in rows[:args.top]:
            print(f"    {row['calls'] / args.concurrent:6.2f}  {' '.join(row['query'].split())[:150]}")
        for name, path in profilers and [(name, path) for name, path, _ in profilers]:
            print_profile(name, path, args.top)
    finally:
        if observer is not None:
            await observer.close()
        await admin.close()
        for pool in pools.values():
            pool.stop()
        for pool in pools.values():
            pool.wait_stopped(15)
        if broker is not None:
            broker.close()
        try:
            await close_database()
        except Exception:  # noqa: BLE001 - closing what may already be gone
            pass
        redis_server.stop()
        postgres.stop()
        if args.keep:
            print(f"logs kept in {logs}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sequential", type=int, default=30, help="signatures one at a time")
    parser.add_argument("--concurrent", type=int, default=300, help="signatures requested at once")
    parser.add_argument("--vaults", type=int, default=8, help="vaults the signatures spread over")
    parser.add_argument("--signer-processes", type=int, default=1, help="worker processes of each signer pool")
    parser.add_argument("--signer-threads", type=int, default=None, help="threads of each signer worker process "
                        "(default: the Procfile's)")
    parser.add_argument("--frost-seconds", type=float, default=3.0, help="length of the in-process FROST run")
    parser.add_argument("--top", type=int, default=12, help="statements listed")
    parser.add_argument("--keep", action="store_true", help="keep the pools' logs")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="py-spy every worker process during the throughput phase; write and summarize to DIR")
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
