"""Where the suite keeps its state: a database, a data folder and a Redis namespace of its own,
and leaving none of it behind.

The defaults differ per checkout (a short hash of the checkout's absolute path), so two clones
can run their suites at once on one machine and on one server; ``CUSTODY_TEST_DATABASE`` and
``CUSTODY_TEST_DATA_DIR`` override them. The Redis namespace differs per process.

When a run ends (:meth:`SuiteRun.end`), the last run of this checkout still going removes what
the suite made: its data folder (the embedded servers' data, about 90 MB, and the test keys) and,
on servers given by ``DATABASE_URL`` / ``REDIS_URL``, its database and its Redis keys. Nothing
is removed while another run of the same checkout is going, nor when ``CUSTODY_TEST_KEEP_DATA``
is set (``1``: to look at the database after a failure); a folder named by
``CUSTODY_TEST_DATA_DIR`` is the caller's and stays.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

from custody.embedded import EmbeddedServers, PidRegistry

#: The checkout this suite belongs to.
ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]

#: Created (dropped first) and migrated on the test server at the start of every session.
TEST_DATABASE = os.environ.get("CUSTODY_TEST_DATABASE") or f"custody_test_{CHECKOUT}"
#: Embedded servers' data and the test secret keys; outside the checkout, removed when the run ends.
TEST_DATA_DIR = Path(os.environ.get("CUSTODY_TEST_DATA_DIR")
                     or Path(tempfile.gettempdir()) / f"custody-test-{os.getuid()}-{CHECKOUT}")
#: The broker's key prefix in Redis.
TEST_NAMESPACE = f"custody-test-{os.getpid()}"
#: Keep the data folder and the test database when the run ends.
KEEP_TEST_DATA = os.environ.get("CUSTODY_TEST_KEEP_DATA", "").strip().lower() not in ("", "0", "false", "no")


class SuiteRun:
    """This run of the suite, registered in the data folder beside the other runs of the checkout."""

    def __init__(self, data_dir: Path = TEST_DATA_DIR, *, owned: bool = not os.environ.get("CUSTODY_TEST_DATA_DIR"),
                 keep: bool = KEEP_TEST_DATA) -> None:
        #: ``owned``: the suite chose the folder (and removes it); ``keep``: nothing is removed.
        self.data_dir, self.owned, self.keep = data_dir, owned, keep
        self._registry = PidRegistry(data_dir / "runs.json")

    def begin(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._registry.add(os.getpid())

    @property
    def leaves_nothing(self) -> bool:
        """Whether this run removes what the suite made when it ends: no other run of this
        checkout is going and nobody asked to keep it."""
        alone = all(pid == os.getpid() for pid in self._registry.prune())
        return alone and not self.keep

    def end(self) -> None:
        """Unregister; the last run removes the data folder unless it is kept (module docstring).
        Call it once the embedded servers are stopped: their data is in that folder."""
        removing = self.leaves_nothing and self.owned
        self._registry.remove(os.getpid())
        if removing:
            shutil.rmtree(self.data_dir, ignore_errors=True)


def stop_embedded(servers: EmbeddedServers) -> None:
    """Stop the embedded servers this session started (custody/embedded.py: unless another live
    process uses them, e.g. a second run of this checkout's suite)."""
    servers.stop()
