"""Where the suite keeps its state: a database, a data folder and a Redis namespace of its own,
and leaving none of it behind.

The defaults differ per checkout (a short hash of the checkout's absolute path), so two clones
can run their suites at once on one machine and on one server; ``CUSTODY_TEST_DATABASE`` and
``CUSTODY_TEST_DATA_DIR`` override them. The Redis namespace differs per process. A run with
pytest-xdist workers (``scripts/test -n 2``) migrates the suite's database once and gives each
worker a copy of it (:func:`prepare_database`), and a service data folder of its own; the workers
share the embedded servers.

When a run ends (:meth:`SuiteRun.end`), the last run of this checkout still going removes what
the suite made: its data folder (the embedded servers' data, about 90 MB, and the test keys) and,
on servers given by ``DATABASE_URL`` / ``REDIS_URL``, its database and its Redis keys. Nothing
is removed while another run of the same checkout is going, nor when ``CUSTODY_TEST_KEEP_DATA``
is set (``1``: to look at the database after a failure); a folder named by
``CUSTODY_TEST_DATA_DIR`` is the caller's and stays.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Awaitable, Callable

import asyncpg

from custody.embedded import EmbeddedServers, PidRegistry

#: The checkout this suite belongs to.
ROOT = Path(__file__).resolve().parents[2]
CHECKOUT = hashlib.sha256(str(ROOT).encode()).hexdigest()[:8]

#: This process's pytest-xdist worker ("gw0", "gw1", ...), or "" in a run without workers.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
#: Created (dropped first) and migrated on the test server once per run. In a run with workers
#: (``-n``) it is the template each worker's database is copied from, so the migrations run once.
SUITE_DATABASE = os.environ.get("CUSTODY_TEST_DATABASE") or f"custody_test_{CHECKOUT}"
#: This process's database: the suite's, or its worker's copy of it.
TEST_DATABASE = f"{SUITE_DATABASE}_{WORKER}" if WORKER else SUITE_DATABASE
#: Embedded servers' data and the test secret keys; outside the checkout, removed when the run ends.
TEST_DATA_DIR = Path(os.environ.get("CUSTODY_TEST_DATA_DIR")
                     or Path(tempfile.gettempdir()) / f"custody-test-{os.getuid()}-{CHECKOUT}")
#: The service's data folder in the tests (secret keys, stores): one per worker, inside TEST_DATA_DIR,
#: whose embedded servers the workers share.
TEST_SERVICE_DIR = TEST_DATA_DIR / f"service-{WORKER}" if WORKER else TEST_DATA_DIR
#: What the suite keeps from one run to the next of this checkout, as mypy keeps ``.mypy_cache``:
#: results that depend only on files and versions, each stored with the hash of what it depends on.
TEST_CACHE_DIR = ROOT / ".test_cache"
#: Taken by a worker while it makes or copies the suite's database, or drops it as its last user.
_TEMPLATE_LOCK = TEST_DATA_DIR / "template.lock"
#: The live processes (of this checkout's runs) that copied the suite's database and have not ended.
_TEMPLATE_USERS = PidRegistry(TEST_DATA_DIR / "template-users.json")
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


async def prepare_database(admin_url: str, migrate: Callable[[str], Awaitable[None]]) -> None:
    """Make :data:`TEST_DATABASE` afresh and migrated. ``migrate`` applies the migrations to the
    database named. Without workers: drop, create, migrate. With workers: the first worker of the
    run (under a file lock) makes and migrates :data:`SUITE_DATABASE`, and every worker copies it
    (``CREATE DATABASE ... TEMPLATE``, a file copy: milliseconds, where the migrations take
    seconds), and registers as one of its users (:func:`release_database`)."""
    if not WORKER:
        await _recreate(admin_url, TEST_DATABASE)
        await migrate(TEST_DATABASE)
        return
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    TEST_DATA_DIR.mkdir(parents=True, exist_ok=True)
    with open(_TEMPLATE_LOCK, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        lock.seek(0)
        # (The last user of this run may have dropped it already: a worker whose first test that
        # needs the database comes after every other worker ended makes it again.)
        if lock.read().strip() != run or not await _exists(admin_url, SUITE_DATABASE):
            await _recreate(admin_url, SUITE_DATABASE)
            await migrate(SUITE_DATABASE)
            lock.seek(0)
            lock.truncate()
            lock.write(run)
            lock.flush()
        await _recreate(admin_url, TEST_DATABASE, template=SUITE_DATABASE)
        _TEMPLATE_USERS.add(os.getpid())


async def release_database(admin_url: str, *, last_run: bool) -> None:
    """Drop this process's database, when the run ends on a server given by ``DATABASE_URL``.

    Without workers it is the suite's database, shared by the runs of this checkout: it goes with
    the last run (``last_run``). With workers, the suite's database (the template) goes with the
    last process of this checkout's runs that copied it: the one that leaves the registry of its
    users empty, under the template's lock. Deciding that and leaving are one step; deciding by
    the runs' registry, which a process leaves only after this, had two workers that ended at the
    same moment each see the other and leave the template behind."""
    if not WORKER and not last_run:
        return
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {TEST_DATABASE} WITH (FORCE)")
        if not WORKER:
            return
        with open(_TEMPLATE_LOCK, "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not _TEMPLATE_USERS.remove(os.getpid()):
                await conn.execute(f"DROP DATABASE IF EXISTS {SUITE_DATABASE} WITH (FORCE)")
    finally:
        await conn.close()


async def _exists(admin_url: str, database: str) -> bool:
    conn = await asyncpg.connect(admin_url)
    try:
        return bool(await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", database))
    finally:
        await conn.close()


async def _recreate(admin_url: str, database: str, *, template: str | None = None) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {database}" + (f" TEMPLATE {template}" if template else ""))
    finally:
        await conn.close()
