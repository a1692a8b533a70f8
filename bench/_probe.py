"""Actors of bench/latency.py, run by real ``dramatiq`` worker processes on the service's broker.

``python -m dramatiq _probe`` (from bench/) starts them; the broker is the service's own
(core.broker.create_broker: the wake-up list consumer, the AsyncIO middleware), on the Redis URL
and namespace the benchmark passes in the environment.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dramatiq  # noqa: E402

from core.broker import create_broker  # noqa: E402
from core.settings import Settings  # noqa: E402

NAMESPACE = os.environ.get("BENCH_NAMESPACE", "custody-bench-latency")
broker = create_broker(Settings(redis_url=os.environ["REDIS_URL"]), namespace=NAMESPACE)
dramatiq.set_broker(broker)

#: Rounds of SHA-256 one ``burn`` message costs (about 10 ms of one core).
BURN_ROUNDS = 20_000


def burn_once(rounds: int = BURN_ROUNDS) -> bytes:
    digest = b"x"
    for _ in range(rounds):
        digest = hashlib.sha256(digest).digest()
    return digest


@dramatiq.actor(queue_name="bench_latency", max_retries=0)
async def ping(sent_at: float) -> None:
    """Record how long after its enqueue this actor started (the async path of every actor)."""
    started = time.time()
    broker.client.rpush(f"{NAMESPACE}:results:latency", f"{started - sent_at:.6f}")


@dramatiq.actor(queue_name="bench_cpu", max_retries=0)
def burn(rounds: int) -> None:
    """CPU-bound work (the GIL holds it to one core per process)."""
    burn_once(rounds)
    broker.client.incr(f"{NAMESPACE}:results:burned")
