"""What the benchmarks share: a throw-away database and Redis namespace on the given servers, the
statements a process sends, and the machine's CPU.

The scripts run as ``python bench/<name>.py``, so this module is importable as ``_support``.
"""

from __future__ import annotations

import atexit
import collections
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import redis


@contextmanager
def counting_statements() -> Iterator[collections.Counter[str]]:
    """Count every statement this process sends through asyncpg inside the block (tortoise's and
    raw SQL alike, BEGIN and COMMIT included), by its first 100 characters (the recording is the
    tests' own: tests/support/statements.py; the repository's root must be on the path)."""
    from tests.support.statements import recording_statements

    counted: collections.Counter[str] = collections.Counter()

    def count(statement: str) -> None:
        counted[statement[:100]] += 1

    with recording_statements(count):
        yield counted


def with_database(url: str, database: str) -> str:
    """``url`` pointing at ``database`` instead (scheme normalised for asyncpg)."""
    parts = urlsplit(url.replace("postgres://", "postgresql://", 1))
    return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))


async def recreate_database(server_url: str, database: str) -> str:
    """Drop and create ``database`` on the server of ``server_url``; return its URL."""
    conn = await asyncpg.connect(server_url.replace("postgres://", "postgresql://", 1))
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        await conn.execute(f"CREATE DATABASE {database}")
    finally:
        await conn.close()
    return with_database(server_url, database)


async def drop_database(server_url: str, database: str) -> None:
    conn = await asyncpg.connect(server_url.replace("postgres://", "postgresql://", 1))
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
    finally:
        await conn.close()


def flush_namespace(redis_url: str | None, namespace: str) -> None:
    """Delete the benchmark's broker keys: ``<namespace>:*`` and those of its sub-namespaces,
    ``<namespace>-*`` (none to delete without a Redis: nothing was enqueued). Not every key that
    starts with the name: ``custody-bench-123`` must not take ``custody-bench-1234``'s."""
    if redis_url is None:
        return
    client = redis.Redis.from_url(redis_url)
    try:
        stale = [key for suffix in (":", "-") for key in client.scan_iter(match=f"{namespace}{suffix}*", count=1000)]
        if stale:
            client.delete(*stale)
    finally:
        client.close()


def scratch_data_dir() -> Path:
    """A temporary data folder for the service in this bench (it holds a secret key), removed when
    the bench's process ends."""
    folder = Path(tempfile.mkdtemp(prefix="custody-bench-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def machine_ticks() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine, every core (/proc/stat's first line)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def _process_stat(path: Path) -> tuple[str, list[str]]:
    """A process's name and the fields of its ``/proc/<pid>/stat`` after the name (OSError once it
    ended): ``[11]`` utime, ``[12]`` stime, ``[13]`` cutime, ``[14]`` cstime, in clock ticks."""
    name, _, rest = path.read_text().partition(" (")[2].rpartition(")")
    return name, rest.split()


def _cpu_seconds(fields: list[str], *, children: bool) -> float:
    return sum(int(value) for value in fields[11:15 if children else 13]) / os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int, *, children: bool = False) -> float:
    """CPU seconds (user and system) the process used so far; with ``children``, also those of its
    children that ended and were reaped. OSError once the process is gone."""
    return _cpu_seconds(_process_stat(Path(f"/proc/{pid}/stat"))[1], children=children)


def server_cpu_seconds(command: str) -> float:
    """CPU seconds used so far by the processes named ``command`` on this machine (``postgres``,
    ``redis-server``): their own and that of their children that ended (a PostgreSQL backend's,
    counted in the postmaster once it is reaped). The whole server: every database's work."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, fields = _process_stat(stat)
        except OSError:  # ended meanwhile
            continue
        if name == command:
            total += _cpu_seconds(fields, children=True)
    return total
