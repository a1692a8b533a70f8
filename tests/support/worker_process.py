"""A dramatiq worker in a process of its own, on the test suite's database and Redis namespace.

    python -m tests.support.worker_process --namespace custody-test-1234

The settings come from the environment (DATABASE_URL, REDIS_URL, CUSTODY_DATA_DIR, CUSTODY_ENV,
CUSTODY_CRASH_POINTS, ...), like any process of the service; the broker is set up exactly as a
``custody worker`` process sets it up (the database opens when the worker boots). A test starts
it to kill it for real (SIGKILL at a crash point, core.faults) and then checks what survives.
"""

from __future__ import annotations

import argparse
import signal
import threading

import dramatiq

from core.logs import configure_logging
from core.settings import Settings, configure
from custody.wiring import setup_broker


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--namespace", required=True, help="the test broker's Redis key prefix")
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    settings = configure(Settings.from_env())
    configure_logging()
    broker = setup_broker(settings, namespace=args.namespace)
    worker = dramatiq.Worker(broker, worker_threads=args.threads, worker_timeout=50)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    worker.start()
    stop.wait()
    worker.stop(timeout=5000)


if __name__ == "__main__":
    main()
