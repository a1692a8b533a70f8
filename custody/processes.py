"""Command lines of the worker processes, and which queues a general worker takes."""

from __future__ import annotations

import sys
from typing import Sequence

from custody.wiring import worker_queues
from domain.signing.signer_keys import queue_of
from threshold.scheme import SERVICE_PARTICIPANTS


def worker_command(*, processes: int, threads: int, queues: Sequence[str]) -> list[str]:
    """The ``dramatiq`` command line of a worker process on ``queues``."""
    command = [sys.executable, "-m", "dramatiq", "custody.worker_app", "--processes", str(processes),
               "--threads", str(threads)]
    if queues:
        command += ["--queues", *queues]
    return command


def general_queues() -> list[str]:
    """Every queue except the signers': what a general ``custody worker`` should consume.

    A general worker must never take signer messages (in production their actors refuse to run
    outside their signer process, and would only be retried).
    """
    signer_queues = {queue_of(p) for p in SERVICE_PARTICIPANTS}
    return [queue for queue in worker_queues() if queue not in signer_queues]
