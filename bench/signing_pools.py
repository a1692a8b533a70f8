"""Benchmark: threshold signatures through the real signer processes (the Procfile's pools).

    .venv/bin/python bench/signing_pools.py [--sequential 30] [--concurrent 300] [--vaults 8] \\
        [--signer-processes 1] [--batch 10] [--requesters N] [--seconds 10] [--warmup 4] [--profile DIR]

Needs nothing running: like bench/chaos.py it starts its own PostgreSQL (with
``pg_stat_statements``, to count every statement of every process) and Redis, then the Procfile's
``worker``, ``signer1`` and ``signer2`` pools as they are (``--signer-processes 2`` runs each
signer with two worker processes, for the scaling figure). Keys come from the DKG with an
in-process co-signer. It prints:

1. **one at a time**: ``--sequential`` signatures, each requested (``sessions.request_signature``
   in a unit of work, as the withdrawal pipeline does) once the previous one completed; p50/p99
   from the request to the completed session row (polled every 2 ms on a separate role, whose
   statements are not counted). Target p50 <= 100 ms.
2. **throughput**, sustained: ``--concurrent`` signatures kept in flight over ``--vaults`` vaults
   by ``--requesters`` requester processes (this script with ``--requester``), each running
   units of work of ``--batch`` requests in a closed loop (request, wait until all completed,
   request again); signatures completed per second in a ``--seconds`` window after ``--warmup``
   seconds of load. Target >= 150/s, and >= 0.4x the in-process FROST rate of the same run
   (bench/signing.py ``frost_in_process``: both signers' rounds and the aggregation in this
   process, no database), measured before the pools start and again after the window, once they
   are idle (the limit is the mean of the two, both printed); with ``--signer-processes N`` > 1
   also against in-process FROST in N processes at once (what N processes per signer could do
   if the cores were theirs). Beside it, what a reader needs to tell where the limit is: the
   CPU each process group used in the window (signer pools, worker, PostgreSQL, Redis, the
   requesters: a group whose processes stay well under one core each is waiting, not
   computing; the PostgreSQL backends of the requesters' completion polls, every
   :data:`POLL_SECONDS`, are a group of their own, left out of the cost per signature), what
   PostgreSQL's backends waited for (sampled ``pg_stat_activity``: a lock taken on every
   signature shows as ``Lock:*``), and the nonce stock, live round-one nonces and audit
   entries left unchained after the window.

   Who takes part in one signature: the requester (vault/key set/policy, stock take, session
   with commitments and audit entry: one transaction), ``signer1`` and ``signer2`` (one
   transaction per batch of wake-up messages each: those that arrive while a batch is signed
   are signed together after it, core.coalescing; of the two, the later one completes the
   sessions it aggregates, sessions.aggregator_of, and wakes the other for the rest).
   The ``worker`` pool coordinates nothing here: it chains the audit entries (one chainer per
   workspace at a time), which the signing figure does not wait for.
3. **SQL statements per signature** in every process (pg_stat_statements, BEGIN/COMMIT included)
   during the window, and the statements that make most of them, each with the time PostgreSQL
   spent executing and planning it and how often it was planned. Target <= 20.

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

from _support import machine_ticks, process_cpu_seconds  # noqa: E402  (bench/ is importable once on the path)

TARGET_RATE = 150.0
TARGET_OF_IN_PROCESS = 0.4
TARGET_P50_MS = 100.0
TARGET_STATEMENTS = 20.0
OBSERVER = "bench_observer"


def start_profilers(pools: dict[str, Any], folder: str) -> list[tuple[str, Path, Any]]:
    """py-spy (``pip install py-spy``) on every worker process of the pools, until stopped; it
    samples the thread that holds the GIL only (``--gil``), so the samples are where the CPU
    went, not where a thread waited."""
    import subprocess

    Path(folder).mkdir(parents=True, exist_ok=True)
    started = []
    for name, pool in pools.items():
        for pid in pool.pids()[1:]:  # the worker processes, not the pool's main process
            path = Path(folder) / f"{name}-{pid}.txt"
            process = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "-p", str(pid),
                                        "-f", "raw", "-o", str(path), "-r", "50", "--nonblocking", "--gil"],
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
    """Where a process spent its samples: the share of samples each of the project's functions
    appears in (threading, asyncio and dramatiq frames are in nearly all of them), and the
    functions the samples ended in."""
    from collections import Counter

    if not path.exists():
        print(f"  profile of {name}: none written")
        return
    own = ("domain/", "core/", "actors/", "threshold/", "custody/", "models/")
    inclusive: Counter = Counter()
    leaf: Counter = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        total += int(count)
        frames = stack.split(";")
        for frame in {f.split(" (")[0] for f in frames if any(o in f for o in own)}:
            inclusive[frame] += int(count)
        if frames:
            leaf[frames[-1].split(" (")[0]] += int(count)
    if not total:
        print(f"  profile of {name}: no samples (idle)")
        return
    print(f"  profile of {name} ({path.name}, {total} samples while not idle): the project's functions by share "
          "of samples; then the functions samples ended in")
    for frame, samples in inclusive.most_common(top):
        print(f"    {samples / total:6.1%}  {frame}")
    print("    -- ended in: " + ", ".join(f"{f} {c / total:.0%}" for f, c in leaf.most_common(6)))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


# --------------------------------------------------------------------------------------------
# The sustained phase: requester processes, CPU per process group, lock waits
# --------------------------------------------------------------------------------------------

#: How often a requester looks for its sessions' completion (one query for all it has in flight).
#: The polls are the bench's instrument, not the service (a withdrawal is woken by its sessions
#: instead), yet they share its two cores: every 10 ms, their backends took 0.27 cores, more
#: than the service's own PostgreSQL work; every 50 ms adds 20 ms on average to a unit of work's
#: wait, against the ~700 ms it waits at 300 in flight. Their CPU is printed apart.
POLL_SECONDS = 0.05


def default_requesters() -> int:
    """Requester processes: a quarter of the CPUs, 2 to 6 (one requesting process alone bounded
    the old burst figure on a 16-core machine)."""
    return max(2, min(6, (os.cpu_count() or 2) // 4))


def as_utc(timestamp: float) -> Any:
    from datetime import datetime, timezone

    return datetime.fromtimestamp(timestamp, tz=timezone.utc)


class Requester:
    """A requester process (this script with ``--requester``): told its share of the units of
    work on its standard input, it answers ``ready``, starts at ``go``, stops requesting at
    ``stop``, waits for what it has in flight and prints its report as JSON."""

    def __init__(self, config: dict[str, Any]) -> None:
        import json
        import subprocess

        self.process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--requester"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                                        env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.send(json.dumps(config))

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_ready(self) -> None:
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if line != "ready":
            raise SystemExit(f"a requester process did not start (it said {line!r}, exit {self.process.poll()})")

    def result(self, timeout: float) -> dict[str, Any]:
        import json

        out, _ = self.process.communicate(timeout=timeout)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if not lines:
            raise SystemExit(f"a requester process ended without its report (exit {self.process.returncode})")
        return {**json.loads(lines[-1]), "pid": self.pid}

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def start_requesters(count: int, units: int, args: argparse.Namespace, workspace_id: Any, vault_ids: list,
                     observer_url: str) -> list[Requester]:
    shares = [units // count + (1 if index < units % count else 0) for index in range(count)]
    return [Requester({"index": index, "units": share, "batch": args.batch, "workspace_id": str(workspace_id),
                       "vault_ids": [str(v) for v in vault_ids], "observer_url": observer_url})
            for index, share in enumerate(shares)]


async def requester_main() -> None:
    """One requester process: ``units`` units of work, each requesting ``batch`` signatures in one
    transaction (as the withdrawal workers' sign steps do), waiting until all completed, again."""
    import json
    import uuid

    import asyncpg

    from core.settings import Settings, configure
    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, open_database, setup_broker
    from domain.signing import sessions

    config = json.loads(sys.stdin.readline())
    settings = configure(Settings.from_env())
    await open_database(settings)
    broker = setup_broker(settings, worker=False)
    observer = await asyncpg.connect(config["observer_url"])
    workspace_id = uuid.UUID(config["workspace_id"])
    vault_ids = [uuid.UUID(v) for v in config["vault_ids"]]
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    waiting: dict[uuid.UUID, asyncio.Future] = {}
    latencies: list[float] = []
    requested = 0

    async def poll() -> None:
        while True:  # cancelled once every unit of work is done
            if waiting:
                done = await observer.fetch("SELECT id FROM signing_sessions WHERE id = ANY($1::uuid[]) "
                                            "AND status NOT IN ('round1', 'round2')", list(waiting))
                for row in done:
                    future = waiting.pop(row["id"], None)
                    if future is not None and not future.done():
                        future.set_result(None)
            await asyncio.sleep(POLL_SECONDS)

    async def unit(number: int) -> None:
        nonlocal requested
        counter = 0
        while not stopping.is_set():
            async with unit_of_work():
                ids = []
                for _ in range(config["batch"]):
                    counter += 1
                    ids.append((await sessions.request_signature(
                        workspace_id=workspace_id, vault_id=vault_ids[(number + counter) % len(vault_ids)],
                        message=f"sustained {config['index']} {number} {counter}".encode(), purpose="bench")).id)
            started = time.perf_counter()
            requested += len(ids)
            futures = [loop.create_future() for _ in ids]
            waiting.update(zip(ids, futures))
            await asyncio.gather(*futures)
            latencies.append(time.perf_counter() - started)

    async def commands() -> None:
        for word in ("go", "stop"):
            while (await loop.run_in_executor(None, sys.stdin.readline)).strip() != word:
                pass
            if word == "go":
                tasks.extend(asyncio.create_task(unit(n)) for n in range(config["units"]))
        stopping.set()

    tasks: list[asyncio.Task] = []
    print("ready", flush=True)
    poller = asyncio.create_task(poll())
    await commands()
    await asyncio.gather(*tasks)
    poller.cancel()
    await observer.close()
    broker.close()
    await close_database()
    print(json.dumps({"requested": requested, "latencies": latencies}), flush=True)


#: The group of the PostgreSQL backends of the bench's observer role (the requesters' polls, the
#: wait sampler): the bench's instruments, not the service, reported apart.
OBSERVER_BACKENDS = "postgres for the bench's polls"


def process_groups(pools: dict[str, Any], postgres: Any, redis_server: Any,
                   requesters: list[Requester], observer_backends: set[int]) -> dict[str, list[int]]:
    """The processes whose CPU the bench reports, by group; ``observer_backends``: the PostgreSQL
    backends of the observer role, their own group."""
    groups = {name: pool.pids() for name, pool in pools.items()}
    postmaster = int(Path(postgres.server.pgdata, "postmaster.pid").read_text().split()[0])
    backends = descendants(postmaster)
    groups["postgres"] = [postmaster, *(pid for pid in backends if pid not in observer_backends)]
    groups[OBSERVER_BACKENDS] = [pid for pid in backends if pid in observer_backends]
    if redis_server.process is not None:
        groups["redis"] = [redis_server.process.pid]
    groups["requesters"] = [r.pid for r in requesters]
    groups["bench (this process)"] = [os.getpid()]
    return groups


def descendants(pid: int) -> list[int]:
    try:
        children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    return [grandchild for child in children for grandchild in (child, *descendants(child))]


def cpu_seconds(groups: dict[str, list[int]]) -> dict[int, float]:
    """User + system CPU seconds of every process of ``groups`` so far (/proc/<pid>/stat)."""
    found = {}
    for pids in groups.values():
        for pid in pids:
            try:
                found[pid] = process_cpu_seconds(pid)
            except OSError:
                continue
    return found


def print_cpu(groups: dict[str, list[int]], before: dict[int, float], after: dict[int, float],
              window: float, completed: int) -> None:
    """Cores each process group kept busy during the window, and its busiest processes: a group
    whose processes stay well under one core each is waiting, not computing. Then the CPU each
    group spent per signature, which other load on the machine does not change much; the
    backends of the bench's polls (:data:`OBSERVER_BACKENDS`) are shown but left out of it."""
    parts = []
    costs = []
    total = 0.0
    for name, pids in groups.items():
        used = {pid: (after[pid] - before[pid]) / window for pid in pids if pid in before and pid in after}
        if not used:
            continue
        if name != OBSERVER_BACKENDS:
            total += sum(used.values())
        busy = sorted(used.values(), reverse=True)
        shown = " ".join(f"{u:.2f}" for u in busy[:8]) + (" ..." if len(busy) > 8 else "")
        parts.append(f"{name} {sum(used.values()):.2f} ({len(used)} processes: {shown})")
        costs.append(f"{name} {sum(used.values()) * window / max(completed, 1) * 1000:.2f}")
    print(f"  CPU during the window, in cores (this machine: {os.cpu_count()}; all processes of the machine "
          f"{machine_busy_share(window):.2f}): " + "; ".join(parts) + f"; the bench's processes in all but its polls' "
          f"{total:.2f}")
    print(f"  CPU per signature, ms: {total * window / max(completed, 1) * 1000:.2f} in all but the bench's polls: "
          + ", ".join(costs))


_MACHINE_TICKS: list[tuple[float, int, int]] = []


def machine_busy_share(window: float) -> float:
    """Cores the whole machine kept busy between the two last :func:`mark_machine` calls."""
    if len(_MACHINE_TICKS) < 2:
        return float("nan")
    (_, busy0, total0), (_, busy1, total1) = _MACHINE_TICKS[-2:]
    return (busy1 - busy0) / max(total1 - total0, 1) * (os.cpu_count() or 1)


def mark_machine() -> None:
    busy, total = machine_ticks()
    _MACHINE_TICKS.append((time.time(), busy, total))


class WaitSampler:
    """What the service's PostgreSQL backends wait for, sampled through the observer connection:
    a lock taken on every signature (per key set, vault or workspace) shows as Lock waits."""

    INTERVAL = 0.05

    def __init__(self, observer: Any) -> None:
        from collections import Counter

        self.observer = observer
        self.samples = 0
        self.active = 0
        self.waits: Counter = Counter()
        self.stopping = False

    async def run(self) -> None:
        while not self.stopping:
            rows = await self.observer.fetch(
                "SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE usename = 'postgres' "
                "AND state = 'active' AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
                "AND query NOT LIKE '%pg_stat_statements%'")
            self.samples += 1
            self.active += len(rows)
            for row in rows:
                if row["wait_event_type"] in ("Lock", "LWLock", "IO", "IPC"):
                    self.waits[f"{row['wait_event_type']}:{row['wait_event']}"] += 1
            await asyncio.sleep(self.INTERVAL)

    def stop(self) -> None:
        self.stopping = True

    def summary(self) -> str:
        if not self.samples:
            return "no samples"
        listed = ", ".join(f"{name} {count / self.samples:.2f}" for name, count in self.waits.most_common(5))
        return (f"{self.active / self.samples:.2f} backends active on average, of them waiting (average count): "
                f"{listed or 'none'}")


def _frost_worker(seconds: float, queue: Any) -> None:
    from signing import frost_in_process

    queue.put(frost_in_process(seconds))


def frost_in_parallel(processes: int, seconds: float) -> float:
    """In-process FROST in ``processes`` processes at once: the sum of their rates."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_frost_worker, args=(seconds, queue)) for _ in range(processes)]
    for worker in workers:
        worker.start()
    rates = [queue.get(timeout=seconds + 120) for _ in workers]
    for worker in workers:
        worker.join()
    return sum(rates)


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
        await admin.execute("ALTER SYSTEM SET pg_stat_statements.track_planning = on")
    finally:
        await admin.close()
    postgres.restart()
    admin = await asyncpg.connect(postgres.url)
    await admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await admin.execute(f"DROP ROLE IF EXISTS {OBSERVER}; CREATE ROLE {OBSERVER} LOGIN; "
                        f"GRANT pg_read_all_data, pg_monitor TO {OBSERVER}")
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

        # 2. and 3. A sustained load: --concurrent signatures kept in flight by requester
        # processes (closed loop), completions counted in a steady-state window after a warm-up,
        # with every statement of every process and the CPU each process group used.
        units = max(1, args.concurrent // args.batch)
        requester_count = max(1, min(args.requesters or default_requesters(), units))
        requesters = start_requesters(requester_count, units, args, workspace.id, vault_ids, observer_url)
        try:
            for requester in requesters:
                requester.wait_ready()
            for requester in requesters:
                requester.send("go")
            await asyncio.sleep(args.warmup)
            profilers = start_profilers(pools, args.profile) if args.profile else []
            await admin.execute("SELECT pg_stat_statements_reset()")
            # The groups as they are now, after the warm-up: the requesters' PostgreSQL backends
            # exist only once they connected (taken before, postgres missed half its CPU).
            observer_backends = {row["pid"] for row in await observer.fetch(
                "SELECT pid FROM pg_stat_activity WHERE usename = $1", OBSERVER)}
            groups = process_groups(pools, postgres, redis_server, requesters, observer_backends)
            waits = WaitSampler(observer)
            sampler = asyncio.create_task(waits.run())
            cpu_before = cpu_seconds(groups)
            mark_machine()
            window_start = time.time()
            await asyncio.sleep(args.seconds)
            window_end = time.time()
            cpu_after = cpu_seconds(groups)
            mark_machine()
            waits.stop()
            await sampler
            rows = await admin.fetch(
                "SELECT query, calls, total_exec_time, total_plan_time, plans FROM pg_stat_statements WHERE userid <> $1 AND dbid = "
                "(SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY calls DESC", observer_oid)
            stop_profilers(profilers)
            for requester in requesters:
                requester.send("stop")
            reports = [requester.result(timeout=600) for requester in requesters]
        finally:
            for requester in requesters:
                requester.kill()
        window = window_end - window_start
        completed = await observer.fetchval(
            "SELECT count(*) FROM signing_sessions WHERE status = 'completed' AND completed_at >= $1 "
            "AND completed_at < $2", as_utc(window_start), as_utc(window_end))
        failed = await observer.fetchval(
            "SELECT count(*) FROM signing_sessions WHERE purpose = 'bench' AND status <> 'completed'")
        requested = sum(r["requested"] for r in reports)
        rate = completed / window
        statements = sum(r["calls"] for r in rows) / max(completed, 1)
        stock_left = {r["holder"]: r["n"] for r in await observer.fetch(
            "SELECT holder, count(*) AS n FROM single_use_stock WHERE state = 'available' GROUP BY holder")}
        live_round_one = await observer.fetchval("SELECT count(*) FROM signer_nonces")
        unchained_entries = ("FROM audit_log e WHERE e.workspace_id = $1 AND NOT EXISTS "
                             "(SELECT 1 FROM audit_chain c WHERE c.entry_id = e.id)")
        unchained = await observer.fetchval(f"SELECT count(*) {unchained_entries}", workspace.id)
        # In-process FROST again once the pools are idle (no session in flight, every audit entry
        # chained): the window's limit is the mean of the runs before and after it, so that a drift
        # of this shared host's speed between the two (FROST made 538-934 signatures/s from one run
        # to the next in a session) weighs on both alike.
        idle_deadline = time.monotonic() + 60
        while time.monotonic() < idle_deadline and await observer.fetchval(
                "SELECT EXISTS (SELECT 1 FROM signing_sessions WHERE status IN ('round1', 'round2')) "
                f"OR EXISTS (SELECT 1 {unchained_entries})", workspace.id):
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        in_process_after = frost_in_process(args.frost_seconds)
        in_process_before, in_process = in_process, (in_process + in_process_after) / 2
        in_parallel = frost_in_parallel(args.signer_processes, args.frost_seconds) \
            if args.signer_processes > 1 else in_process
        in_load = sorted(latency for r in reports for latency in r["latencies"])

        p50 = statistics.median(latencies) * 1000
        print(f"signing through the real processes: Procfile pools worker, signer1, signer2 "
              f"(signer processes {args.signer_processes} each, threads "
              f"{args.signer_threads or 'as the Procfile'}), {args.vaults} vaults; machine: {os.cpu_count()} CPUs, "
              f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"  one at a time ({args.sequential}): p50 {p50:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms"
              f"  -> target p50 <= {TARGET_P50_MS:.0f} ms: ratio {p50 / TARGET_P50_MS:.2f}")
        print(f"  {args.concurrent} in flight: {rate:.1f} signatures/s (sustained: {completed} completed in a "
              f"{window:.1f} s window after {args.warmup:.0f} s of warm-up; {requester_count} requester processes, "
              f"{units} units of work of {args.batch} requests in a closed loop; {failed} not completed)  -> target >= "
              f"{TARGET_RATE:.0f}/s: ratio {rate / TARGET_RATE:.2f}")
        if in_load:
            print(f"    request -> completed under that load: p50 {percentile(in_load, 0.5) * 1000:.0f} ms, "
                  f"p99 {percentile(in_load, 0.99) * 1000:.0f} ms ({len(in_load)} units of work, polled every "
                  f"{POLL_SECONDS * 1000:.0f} ms); {requested} requested in all")
        print(f"  in-process FROST 2-of-3 in this run (bench/signing.py, one process, no database): "
              f"{in_process:.1f} signatures/s, the mean of {in_process_before:.1f} before the pools started and "
              f"{in_process_after:.1f} after the window (against these: {rate / in_process_before:.2f}x, "
              f"{rate / in_process_after:.2f}x); through the processes {rate / in_process:.2f}x  -> target >= "
              f"{TARGET_OF_IN_PROCESS}x: ratio {rate / in_process / TARGET_OF_IN_PROCESS:.2f}")
        if args.signer_processes > 1:
            print(f"  in-process FROST in {args.signer_processes} processes at once (the limit of "
                  f"{args.signer_processes} processes per signer, cores allowing): {in_parallel:.1f} signatures/s "
                  f"({in_parallel / in_process:.2f}x one process); through the processes "
                  f"{rate / in_parallel:.2f}x of it")
        print_cpu(groups, cpu_before, cpu_after, window, completed)
        print(f"  waits seen in pg_stat_activity (the service's backends, sampled every "
              f"{WaitSampler.INTERVAL * 1000:.0f} ms): {waits.summary()}")
        print(f"  after the window: available nonce pairs by signer {stock_left or '{}'}, live round-one nonces "
              f"{live_round_one}, audit entries not chained yet {unchained}")
        print(f"  SQL statements per signature, all processes: {statements:.1f}  -> target <= "
              f"{TARGET_STATEMENTS:.0f}: ratio {statements / TARGET_STATEMENTS:.2f}")
        per = max(completed, 1)
        executing = sum(r["total_exec_time"] for r in rows) / per
        planning = sum(r["total_plan_time"] for r in rows) / per
        print(f"  most frequent statements (per signature: calls; the ms PostgreSQL spent executing them and"
              f" planning them, pg_stat_statements' total_exec_time and total_plan_time, {executing:.2f} and"
              f" {planning:.2f} ms for all; then how often one was planned; the rest of its CPU is parsing, the"
              f" protocol, commits and background work):")
        for row in rows[:args.top]:
            print(f"    {row['calls'] / per:6.2f} {row['total_exec_time'] / per:6.3f} {row['total_plan_time'] / per:6.3f}"
                  f" {row['plans'] / per:5.2f}  {' '.join(row['query'].split())[:130]}")
        for name, path, _ in profilers:
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
    parser.add_argument("--concurrent", type=int, default=300, help="signatures kept in flight")
    parser.add_argument("--batch", type=int, default=10, help="signatures requested per unit of work (one "
                        "wake-up message per signer)")
    parser.add_argument("--requesters", type=int, default=None, help="requester processes (default: a quarter "
                        "of the CPUs, 2 to 6)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the steady-state window measured")
    parser.add_argument("--warmup", type=float, default=4.0, help="seconds of load before the window")
    parser.add_argument("--vaults", type=int, default=8, help="vaults the signatures spread over")
    parser.add_argument("--signer-processes", type=int, default=1, help="worker processes of each signer pool")
    parser.add_argument("--signer-threads", type=int, default=None, help="threads of each signer worker process "
                        "(default: the Procfile's)")
    parser.add_argument("--frost-seconds", type=float, default=3.0, help="length of the in-process FROST run")
    parser.add_argument("--top", type=int, default=12, help="statements listed")
    parser.add_argument("--keep", action="store_true", help="keep the pools' logs")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="py-spy every worker process during the throughput phase; write and summarize to DIR")
    parser.add_argument("--requester", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.WARNING)
    if args.requester:
        # Only the project's modules: bench/threshold.py would hide the threshold package.
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
        asyncio.run(requester_main())
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
