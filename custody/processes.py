"""Command lines of the worker processes, and which queues a general worker takes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Iterable, Mapping, Sequence

from core.queues import GENERAL_QUEUES


def worker_command(*, processes: int, threads: int, queues: Sequence[str]) -> list[str]:
    """The command line of a worker pool on ``queues``: dramatiq's worker command (custody.pool)."""
    command = [sys.executable, "-m", "custody.pool", "custody.worker_app", "--processes", str(processes),
               "--threads", str(threads)]
    if queues:
        command += ["--queues", *queues]
    return command


def general_queues() -> list[str]:
    """Every queue except the signers': what a general ``custody worker`` should consume.

    A general worker must never take signer messages (in production their actors refuse to run
    outside their signer process, and would only be retried).
    """
    return list(GENERAL_QUEUES)


def spawn(command: Sequence[str], *, env: Mapping[str, str] | None = None,
          output: int | None = None) -> subprocess.Popen[bytes]:
    """Start a child process of ``custody dev`` in a process group of its own, so that it can be
    stopped with everything it started itself (dramatiq's worker processes).

    ``output=subprocess.PIPE`` gives its standard output and error together as ``stdout``.
    """
    return subprocess.Popen(list(command), start_new_session=True, env=None if env is None else dict(env),
                            stdout=output, stderr=subprocess.STDOUT if output is not None else None)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop_groups(children: Iterable[subprocess.Popen], *, timeout: float = 15.0) -> None:
    """SIGTERM each child, wait up to ``timeout`` for every member of its process group to end,
    then SIGKILL what is left: a worker process that hangs on shutdown never outlives ``custody dev``.

    The SIGTERM goes to the child alone, not to its group: dramatiq's main process forwards it
    to its worker processes, and a worker process that receives a second SIGTERM exits at once
    ("Killing worker process"), abandoning its in-flight messages instead of finishing them.
    """
    children = list(children)
    groups = [child.pid for child in children]
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for child in children:
        try:
            child.wait(timeout=max(deadline - time.monotonic(), 0.1))
        except subprocess.TimeoutExpired:
            pass
    while any(_group_alive(pgid) for pgid in groups) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pgid in groups:
        if _group_alive(pgid):
            os.killpg(pgid, signal.SIGKILL)
    for child in children:
        child.wait()
