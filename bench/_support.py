"""What the benchmarks share: a throw-away database and Redis namespace on the given servers.

The scripts run as ``python bench/<name>.py``, so this module is importable as ``_support``.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import redis


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


def flush_namespace(redis_url: str, namespace: str) -> None:
    """Delete the benchmark's broker keys."""
    client = redis.Redis.from_url(redis_url)
    try:
        stale = list(client.scan_iter(match=f"{namespace}*", count=1000))
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
