"""Where the suite keeps its state: a database, a data folder and a Redis namespace of its own.

The defaults differ per checkout (a short hash of the checkout's absolute path), so two clones
can run their suites at once on one machine and on one server; ``CUSTODY_TEST_DATABASE`` and
``CUSTODY_TEST_DATA_DIR`` override them. The Redis namespace differs per process.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
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
    """Stop the embedded servers this session started (custody/embedded.py: unless another live
    process uses them, e.g. a second run of this checkout's suite)."""
    servers.stop()
