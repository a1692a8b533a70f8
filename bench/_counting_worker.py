"""``custody.isolated_worker`` with the SQL statements of the process counted (bench/withdrawals.py).

    python bench/_counting_worker.py COUNTS_FILE [custody.isolated_worker's arguments]

Every statement the process sends through asyncpg (``fetch``, ``execute``, ...; tortoise and the
service's own SQL alike, BEGIN and COMMIT included) is counted by its first 100 characters.
SIGUSR1 writes the counts so far to ``COUNTS_FILE`` (JSON, replaced atomically), so that the
benchmark can take the difference over its measured window; the worker runs as it would
without the counting (the same entry point, the same settings).
"""

from __future__ import annotations

import collections
import json
import os
import signal
import sys
from pathlib import Path

from _support import counting_statements


def _write(path: Path, counted: collections.Counter[str]) -> None:
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(dict(counted)))
    os.replace(partial, path)


def main() -> None:
    path = Path(sys.argv[1])
    sys.argv = [sys.argv[0], *sys.argv[2:]]
    # Run as a script, this folder comes first on the path, and bench/threshold.py would hide the
    # threshold package: the repository's root takes its place.
    sys.path[0] = str(Path(__file__).resolve().parent.parent)
    from custody.isolated_worker import main as worker_main

    # The async actors all send their statements from the worker's one event-loop thread; the
    # signal handler runs on the main thread between two of its bytecodes.
    with counting_statements() as counted:
        signal.signal(signal.SIGUSR1, lambda *_: _write(path, counted))
        worker_main()


if __name__ == "__main__":
    main()
