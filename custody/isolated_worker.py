"""A dramatiq worker on a Redis key namespace of its own: the test suite's and the benchmarks'.

    python -m custody.isolated_worker --namespace custody-test-1234 [--queues signer_1] [--threads 4]

``custody worker`` and ``custody signer`` use the service's namespace (``custody``); a test or a
benchmark that needs real worker *processes* (to kill one, or to run the signers apart) gives
them its own namespace with this entry point instead. Everything else is what those commands
do: the settings come from the environment (DATABASE_URL, REDIS_URL, CUSTODY_DATA_DIR,
SIGNER_PARTICIPANT, CUSTODY_CRASH_POINTS, ...), the broker is set up by custody.wiring with the
database opened when the worker boots, and SIGTERM stops it gracefully. Its idle poll is
dramatiq's default too (``--worker-timeout``, ``dramatiq_worker_timeout``: 1000 ms), the bound
of each idle consumer's wait on its queue's wake-up list: an enqueue wakes it at once
(core.broker), so a shorter bound only costs CPU. It was 50 ms here once, and the general pool's
32 consumer threads (16 queues and their delay queues) then spent a fifth of a core polling
while idle (bench/withdrawals.py ran on it). A delayed message (a retry with back-off) goes on
when it is due whatever the bound: a delay queue's consumer waits no longer than that.

Its Prometheus samples (dramatiq's middleware, as in a pool's worker process) go to a folder of
its own, removed when it stops, unless ``dramatiq_prom_db`` names one: dramatiq's default is one
folder per host (``/tmp/dramatiq-prometheus``) that nothing empties, and every worker started here
left its files there. A caller that kills the process (a test's crash point) names a folder it
removes itself.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading

import dramatiq
from dramatiq.worker import WORKER_TIMEOUT

from core.logs import configure_logging
from core.settings import Settings, configure
from custody.pool import METRICS_DIR_VARIABLE, metrics_folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--namespace", required=True, help="Redis key prefix of the broker's queues")
    parser.add_argument("--queues", nargs="*", default=None, help="default: every queue")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--worker-timeout", type=int, default=WORKER_TIMEOUT,
                        help="milliseconds an idle consumer waits at most between polls (default: dramatiq's, "
                             "what `custody worker` uses)")
    args = parser.parse_args()
    with metrics_folder(os.environ.get(METRICS_DIR_VARIABLE), prefix="custody-worker-metrics-"):
        run(args)


def run(args: argparse.Namespace) -> None:
    """The worker, until SIGTERM."""
    from custody.wiring import setup_broker  # imports dramatiq's Prometheus middleware: inside main()'s folder

    settings = configure(Settings.from_env())
    configure_logging()
    broker = setup_broker(settings, namespace=args.namespace)
    # What the dramatiq CLI does in each worker process: without it the Prometheus middleware has
    # no metrics and logs a CRITICAL traceback before and after every message.
    broker.emit_after("process_boot")
    worker = dramatiq.Worker(broker, queues=set(args.queues) if args.queues else None, worker_threads=args.threads,
                             worker_timeout=args.worker_timeout)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    worker.start()
    stop.wait()
    worker.stop(timeout=5000)


if __name__ == "__main__":
    main()
