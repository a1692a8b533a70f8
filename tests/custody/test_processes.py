"""Stopping ``custody dev``'s children: each pool stops gracefully, nothing outlives it."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

from custody.embedded import process_alive
from custody.processes import spawn, stop_groups

#: A pool's main process as dramatiq's: it forwards SIGTERM to its worker process, which stops
#: gracefully on the first SIGTERM and exits at once ("Killing worker process") on a second.
POOL = textwrap.dedent("""
    import os, signal, sys, time
    out = sys.argv[1]
    children = []
    # The forwarding handler is in place before the worker exists, and the pool says ready only
    # once it knows its worker and the worker has its own handler: a SIGTERM never finds either
    # without one.
    signal.signal(signal.SIGTERM, lambda *_: [os.kill(c, signal.SIGTERM) for c in children])
    handled, handler_set = os.pipe()
    child = os.fork()
    if child == 0:
        seen = []

        def term(*_):
            seen.append(1)
            if len(seen) > 1:
                open(out, "w").write("killed")
                os._exit(1)

        signal.signal(signal.SIGTERM, term)
        os.write(handler_set, b"1")
        while not seen:
            time.sleep(0.01)
        time.sleep(0.5)  # finishing the in-flight message
        open(out, "w").write("finished its message")
        os._exit(0)
    children.append(child)
    os.read(handled, 1)
    with open(out + ".tmp", "w") as f:
        f.write(str(child))
    os.rename(out + ".tmp", out + ".ready")  # whole or absent: never read half written
    os.waitpid(child, 0)
""")


def test_stopping_a_pool_lets_its_worker_process_finish_gracefully(tmp_path: Path):
    # Given a pool whose worker process is ready
    out = tmp_path / "outcome"
    pool = spawn([sys.executable, "-c", POOL, str(out)])
    ready = Path(str(out) + ".ready")
    deadline = time.monotonic() + 10
    while not ready.exists():
        assert time.monotonic() < deadline, "the pool did not start"
        time.sleep(0.01)
    worker = int(ready.read_text())
    # When custody dev stops its children
    stop_groups([pool], timeout=10)
    # Then the worker process got one SIGTERM (through its main process) and finished its message
    assert out.read_text() == "finished its message"
    assert not process_alive(worker) and pool.returncode is not None
