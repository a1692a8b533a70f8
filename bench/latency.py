"""Benchmark: enqueue -> actor start latency on an idle worker, and 1 -> 2 worker processes on a CPU-bound queue.

    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python bench/latency.py [--pings 200] [--burns 300]

Real ``dramatiq`` worker processes on the service's broker (core.broker: idle consumers wait on
the queue's wake-up list), actors in bench/_probe.py. Prints, each against its limit measured in
the same run:

1. enqueue -> start p50/p99 of an async actor on an idle worker (one message every 20 ms), as a
   ratio to the 20 ms target;
2. messages/s of a CPU-bound actor (about 10 ms of SHA-256 each) with 1 and with 2 worker
   processes (1 thread each), against the same work run in a plain loop in one process (the
   one-core limit), and the 2:1 scaling against the 1.7x target. On a 2-core machine the second
   process competes with Redis, this script and everything else running.

Uses only Redis, under its own namespace (deleted at the end).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import redis

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

from _support import flush_namespace  # noqa: E402

TARGET_P99_MS = 20.0
TARGET_SCALING = 1.7


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def start_workers(processes: int, queues: list[str], env: dict[str, str]) -> subprocess.Popen:
    command = [sys.executable, "-m", "dramatiq", "_probe", "--processes", str(processes), "--threads", "1",
               "--queues", *queues]
    return subprocess.Popen(command, cwd=BENCH, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def stop(worker: subprocess.Popen) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()


def wait_ready(client: redis.Redis, namespace: str, probe, count: int = 3) -> None:  # type: ignore[no-untyped-def]
    """Send pings until the workers answer (they have booted)."""
    deadline = time.monotonic() + 60
    while client.llen(f"{namespace}:results:latency") < count:
        probe.ping.send(time.time())
        time.sleep(0.2)
        if time.monotonic() > deadline:
            raise SystemExit("workers did not start within 60 s")
    client.delete(f"{namespace}:results:latency")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pings", type=int, default=200)
    parser.add_argument("--burns", type=int, default=300)
    args = parser.parse_args()
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        raise SystemExit("bench/latency.py needs REDIS_URL")
    namespace = f"custody-bench-latency-{os.getpid()}"
    env = {**os.environ, "BENCH_NAMESPACE": namespace, "PYTHONPATH": str(BENCH.parent)}
    os.environ["BENCH_NAMESPACE"] = namespace
    import _probe as probe

    client = redis.Redis.from_url(redis_url)
    results: list[str] = []
    try:
        # 1. Idle latency: one worker process, messages far apart
        worker = start_workers(1, ["bench_latency"], env)
        try:
            wait_ready(client, namespace, probe)
            for _ in range(args.pings):
                probe.ping.send(time.time())
                time.sleep(0.02)
            deadline = time.monotonic() + 30
            while client.llen(f"{namespace}:results:latency") < args.pings and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            stop(worker)
        latencies = [float(v) * 1000 for v in client.lrange(f"{namespace}:results:latency", 0, -1)]
        p50, p99 = statistics.median(latencies), _percentile(latencies, 0.99)
        results.append(f"enqueue -> actor start, idle worker ({len(latencies)} messages): p50 {p50:.1f} ms, "
                       f"p99 {p99:.1f} ms; target p99 <= {TARGET_P99_MS:.0f} ms: ratio {p99 / TARGET_P99_MS:.2f} "
                       f"({'met' if p99 <= TARGET_P99_MS else 'missed'})")

        # 2. CPU-bound queue: the one-core limit, then 1 and 2 worker processes
        start = time.perf_counter()
        for _ in range(50):
            probe.burn_once()
        limit = 50 / (time.perf_counter() - start)
        rates = {}
        for processes in (1, 2):
            client.delete(f"{namespace}:results:burned", f"{namespace}:results:latency")
            worker = start_workers(processes, ["bench_cpu", "bench_latency"], env)
            try:
                wait_ready(client, namespace, probe, count=processes * 2)
                client.delete(f"{namespace}:results:burned")
                start = time.perf_counter()
                for _ in range(args.burns):
                    probe.burn.send(probe.BURN_ROUNDS)
                deadline = time.monotonic() + 120
                while int(client.get(f"{namespace}:results:burned") or 0) < args.burns:
                    if time.monotonic() > deadline:
                        raise SystemExit("the CPU-bound queue did not drain within 120 s")
                    time.sleep(0.01)
                rates[processes] = int(client.get(f"{namespace}:results:burned") or 0) / (time.perf_counter() - start)
            finally:
                stop(worker)
        scaling = rates[2] / rates[1]
        results.append(f"CPU-bound queue, same work in a plain loop (one core): {limit:.1f} messages/s")
        for processes in (1, 2):
            results.append(f"  {processes} worker process(es): {rates[processes]:.1f} messages/s "
                           f"({rates[processes] / limit:.2f} of one core)")
        results.append(f"  1 -> 2 processes: {scaling:.2f}x; target >= {TARGET_SCALING}x: ratio "
                       f"{scaling / TARGET_SCALING:.2f} ({'met' if scaling >= TARGET_SCALING else 'missed'}; "
                       f"{os.cpu_count()} cores, shared with Redis and this script)")
    finally:
        client.close()
        flush_namespace(redis_url, namespace)
    print("\n".join(results))


if __name__ == "__main__":
    main()
