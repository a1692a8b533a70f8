"""A dramatiq worker on a Redis key namespace of its own: the test suite's and the benchmarks'.

    python -m custody.isolated_worker --namespace custody-test-1234 [--queues signer_1] [--threads 4]

``custody worker`` and ``custody signer`` use the service's namespace (``custody``); a test or a
benchmark that needs real worker *processes* (to kill one, or to run the signers apart) gives
them its own namespace with this entry point instead. Everything else is what those commands
do: the settings come from the environment (DATABASE_URL, REDIS_URL, CUSTODY_DATA_DIR,
SIGNER_PARTICIPANT, CUSTODY_CRASH_POINTS, ...), the broker is set up by custody.wiring with the
database opened when the worker boots, and SIGTERM stops it gracefully.
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
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--namespace", required=True, help="Redis key prefix of the broker's queues")
    parser.add_argument("--queues", nargs="*", default=None, help="default: every queue")
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    settings = configure(Settings.from_env())
    configure_logging()
    broker = setup_broker(settings, namespace=args.namespace)
    # What the dramatiq CLI does in each worker process: without it the Prometheus middleware has
    # no metrics and logs a CRITICAL traceback before and after every message.
    broker.emit_after("process_boot")
    worker = dramatiq.Worker(broker, queues=set(args.queues) if args.queues else None, worker_threads=args.threads,
                             worker_timeout=50)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    worker.start()
    stop.wait()
    worker.stop(timeout=5000)


if __name__ == "__main__":
    main()
