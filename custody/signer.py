"""``custody signer --participant 1|2``: one of the service's two signer processes.

A signer process is a Dramatiq worker that consumes only its own queue (``signer_1`` or
``signer_2``) and is started with ``SIGNER_PARTICIPANT`` naming it; its actors read only its own
share key (:mod:`domain.signing.signer_keys`). Equivalent by hand::

    SIGNER_PARTICIPANT=1 SIGNER_1_SHARE_KEY=... custody worker --queues signer_1
"""

from __future__ import annotations

import argparse
import os
import sys

from core.settings import get_settings
from custody.processes import worker_command
from domain.signing.signer_keys import SignerConfigurationError, check_process, queue_of

#: dramatiq's setting (environment) of how many messages a worker process fetches ahead.
PREFETCH_VARIABLE = "dramatiq_queue_prefetch"


def signer_worker_command(participant: int, *, processes: int = 1, threads: int | None = None) -> list[str]:
    """The worker command line of signer ``participant``: its own queue only."""
    settings = get_settings()
    return worker_command(processes=processes, threads=threads or settings.signer_threads,
                          queues=[queue_of(participant)])


def signer_prefetch(threads: int) -> int:
    """Messages a signer process fetches ahead: one per thread, none waiting behind them.

    A signer's work is CPU (the FROST arithmetic) on the one event loop of its process, so
    messages held in a busy process's cache wait while another process of the pool idles.
    dramatiq's default (twice the threads) let the first process woken take every message of a
    burst (a wake-up carries up to 100 sessions): one core signed while the others waited, and
    more processes per signer added nothing. With one message per thread, a message waits in
    Redis until some process has a thread free, and every process of the pool takes its share.
    """
    return max(1, threads)


def cmd_signer(args: argparse.Namespace) -> int:
    """``custody signer --participant N``: check the key set-up, then exec the signer's worker."""
    settings = get_settings()
    try:
        check_process(args.participant, settings.with_overrides(signer_participant=args.participant))
    except SignerConfigurationError as exc:
        sys.exit(f"custody signer: {exc}")
    if not (settings.database_url and settings.redis_url):
        sys.exit("custody signer: DATABASE_URL and REDIS_URL must be set")
    # The worker processes read SIGNER_PARTICIPANT through the settings.
    os.environ["SIGNER_PARTICIPANT"] = str(args.participant)
    threads = args.threads or settings.signer_threads  # SIGNER_THREADS, not the general pool's WORKER_THREADS
    # dramatiq reads it when a worker process starts; an operator's own value wins.
    os.environ.setdefault(PREFETCH_VARIABLE, str(signer_prefetch(threads)))
    command = signer_worker_command(args.participant, processes=args.processes or 1, threads=threads)
    os.execv(command[0], command)
    return 0  # pragma: no cover - execv does not return
