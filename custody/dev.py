"""``custody dev``: the whole service on one machine, for development.

It starts the embedded servers when ``DATABASE_URL`` / ``REDIS_URL`` are unset, applies the
migrations, then runs as children: the local Solana chain, the local EVM, the API, a worker pool, the two
signer pools and the scheduler. What it shows and where it keeps the rest:

* **The terminal** gets what a person needs: one line when it starts, one when the API answers
  ``/ready``, and every warning or error of any process, prefixed with the process's name. It is
  shared with the commands typed after ``scripts/dev &``, so routine INFO lines stay out of it.
* **The log file** ``<data dir>/dev.log`` gets every line of every process at ``LOG_LEVEL``
  (INFO by default), prefixed the same way (``tail -f .custody/dev.log``); the previous run's is
  kept as ``dev.log.1``.
* **Metrics.** The API serves ``/metrics`` on its port. Each pool serves dramatiq's metrics on a
  loopback port of its own, from a folder of its own under ``<data dir>/metrics/<pool>``, so two
  checkouts (two data directories) never share one; ``<data dir>/metrics/targets.json`` lists the
  scrape targets in Prometheus's file_sd format.

Ctrl-C or SIGTERM stops every child (each with what it started) and then the embedded servers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Sequence

from core.logs import add_file_log
from core.settings import get_settings
from custody import faucet
from custody.embedded import with_embedded_servers
from custody.processes import general_queues, spawn, stop_groups, worker_command
from custody.wiring import migrate

logger = logging.getLogger(__name__)

#: The level of a log line in the service's text format (core.logs) or its JSON format.
_TEXT_LEVEL = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) ")
_JSON_LEVEL = re.compile(r'^\{.*"level": "(DEBUG|INFO|WARNING|ERROR|CRITICAL)"')
#: Levels shown on the terminal.
SHOWN_LEVELS = frozenset({"WARNING", "ERROR", "CRITICAL"})


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class OutputRouter:
    """Copies the children's output to the log file, and their warnings and errors to the terminal.

    One thread per child reads its output line by line. A line that starts a log record shows on
    the terminal when the record's level is WARNING or above; a line that continues a record (a
    traceback) follows its record; a line before any record (a crash before logging was set up)
    always shows.
    """

    def __init__(self, log: IO[str], terminal: IO[str], lock: threading.Lock) -> None:
        self.log = log
        self.terminal = terminal
        self.lock = lock
        self.threads: list[threading.Thread] = []
        self.width = 10

    def follow(self, name: str, stream: IO[bytes]) -> None:
        thread = threading.Thread(target=self._copy, args=(name, stream), name=f"output-{name}", daemon=True)
        thread.start()
        self.threads.append(thread)

    def _copy(self, name: str, stream: IO[bytes]) -> None:
        shown = True
        prefix = f"{name:<{self.width}}| "
        for raw in iter(stream.readline, b""):
            line = raw.decode(errors="replace").rstrip("\n")
            level = _TEXT_LEVEL.match(line) or _JSON_LEVEL.match(line)
            if level is not None:
                shown = level.group(1) in SHOWN_LEVELS
            with self.lock:
                self.log.write(prefix + line + "\n")
                self.log.flush()
                if shown:
                    self.terminal.write(prefix + line + "\n")
                    self.terminal.flush()
        stream.close()

    def join(self, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        for thread in self.threads:
            thread.join(max(deadline - time.monotonic(), 0.1))


def open_log(data_dir: Path) -> IO[str]:
    """``<data dir>/dev.log``, fresh; the previous run's becomes ``dev.log.1``."""
    path = Path(data_dir) / "dev.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.replace(path.with_name("dev.log.1"))
    return open(path, "a", encoding="utf-8", buffering=1)


def metrics_targets(*, host: str, port: int, pools: dict[str, int]) -> list[dict[str, object]]:
    """Prometheus file_sd targets: the API and each pool's exposition server."""
    api_host = "127.0.0.1" if host in ("0.0.0.0", "") else host
    targets: list[dict[str, object]] = [{"targets": [f"{api_host}:{port}"], "labels": {"process": "web"}}]
    targets.extend({"targets": [f"127.0.0.1:{pool_port}"], "labels": {"process": name}}
                   for name, pool_port in pools.items())
    return targets


def _ready(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/ready", timeout=1) as response:
            return bool(response.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def cmd_dev(args: argparse.Namespace) -> int:
    """Embedded servers (if needed), migrations, then every process of the service as children."""
    data_dir = Path(get_settings().data_dir)
    log = open_log(data_dir)
    lock = threading.Lock()
    # This process's own records: to the log file, and warnings and errors to the terminal too.
    add_file_log(log, lock=lock, console_level="WARNING")
    settings, servers = with_embedded_servers(get_settings())
    base_url = f"http://{'127.0.0.1' if args.host == '0.0.0.0' else args.host}:{args.port}"
    os.environ.setdefault("CUSTODY_BASE_URL", base_url)
    os.environ.setdefault("WEBHOOK_ALLOW_LOOPBACK", "true")
    asyncio.run(migrate(settings))
    custody = [sys.executable, "-m", "custody.cli"]
    # The local Solana chain first: one LiteSVM chain for every process (domain.networks.solana_local)
    if not os.environ.get("SOLANA_LOCAL_URL"):
        os.environ["SOLANA_LOCAL_URL"] = f"http://127.0.0.1:{free_port()}"
    local_port = os.environ["SOLANA_LOCAL_URL"].rsplit(":", 1)[-1]
    # For the tools of another shell (custody faucet): removed when custody dev stops.
    url_file = data_dir / faucet.SOLANA_LOCAL_URL_FILE
    url_file.write_text(os.environ["SOLANA_LOCAL_URL"] + "\n")
    # The local EVM likewise: one py-evm chain behind JSON-RPC (domain.networks.evm_local)
    if not os.environ.get("EVM_LOCAL_URL"):
        os.environ["EVM_LOCAL_URL"] = f"http://127.0.0.1:{free_port()}"
    evm_port = os.environ["EVM_LOCAL_URL"].rsplit(":", 1)[-1]
    evm_url_file = data_dir / faucet.EVM_LOCAL_URL_FILE
    evm_url_file.write_text(os.environ["EVM_LOCAL_URL"] + "\n")
    # Each pool: its metrics on a loopback port and in a folder of its own (custody.pool empties it).
    metrics_dir = data_dir / "metrics"
    pool_ports = {name: free_port() for name in ("worker", "signer1", "signer2")}

    def pool_env(name: str) -> dict[str, str]:
        return {**os.environ, "dramatiq_prom_host": "127.0.0.1", "dramatiq_prom_port": str(pool_ports[name]),
                "dramatiq_prom_db": str((metrics_dir / name).resolve())}

    metrics_dir.mkdir(parents=True, exist_ok=True)
    (metrics_dir / "targets.json").write_text(json.dumps(
        metrics_targets(host=args.host, port=args.port, pools=pool_ports), indent=2) + "\n")
    router = OutputRouter(log, sys.stderr, lock)
    commands: dict[str, tuple[Sequence[str], dict[str, str] | None]] = {
        "solana": ([*custody, "solana-local", "--port", local_port], None),
        "evm": ([*custody, "evm-local", "--port", evm_port], None),
        "web": ([*custody, "web", "--host", args.host, "--port", str(args.port)], None),
        "worker": (worker_command(processes=1, threads=settings.worker_threads, queues=general_queues()),
                   pool_env("worker")),
        "signer1": ([*custody, "signer", "--participant", "1"], pool_env("signer1")),
        "signer2": ([*custody, "signer", "--participant", "2"], pool_env("signer2")),
        "scheduler": ([*custody, "scheduler"], None),
    }
    children: dict[str, subprocess.Popen[bytes]] = {}
    for name, (command, env) in commands.items():
        child = children[name] = spawn(command, env=env, output=subprocess.PIPE)
        assert child.stdout is not None
        router.follow(name, child.stdout)
    _say(log, lock, f"custody dev: starting the API at {base_url}, a worker, signers 1 and 2, the scheduler, the "
                    f"local Solana chain (SOLANA_LOCAL_URL={os.environ['SOLANA_LOCAL_URL']}) and the local EVM "
                    f"(EVM_LOCAL_URL={os.environ['EVM_LOCAL_URL']}); every process's log "
                    f"in {data_dir / 'dev.log'}, warnings and errors here; Ctrl-C stops everything")
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    exit_code = 0
    announced = False
    try:
        while not stopping:
            for name, child in children.items():
                if child.poll() is not None:
                    _say(log, lock, f"custody dev: {name} exited with {child.returncode}; stopping everything "
                                    f"(its log: {data_dir / 'dev.log'})", stream=sys.stderr)
                    exit_code, stopping = child.returncode or 1, True
            if not announced and not stopping and _ready(base_url):
                announced = True
                _say(log, lock, f"custody dev: ready at {base_url} (docs at {base_url}/docs, metrics at "
                                f"{base_url}/metrics and the pools' in {metrics_dir / 'targets.json'})")
            time.sleep(0.5)
    finally:
        # Each child with what it started (dramatiq's worker processes), before the servers go.
        stop_groups(children.values(), timeout=15)
        router.join()
        url_file.unlink(missing_ok=True)
        evm_url_file.unlink(missing_ok=True)
        servers.stop()
        _say(log, lock, "custody dev: stopped")
        log.close()
    return exit_code


def _say(log: IO[str], lock: threading.Lock, text: str, *, stream: IO[str] | None = None) -> None:
    """A line of custody dev's own, on the terminal (stdout unless told) and in the log file."""
    with lock:
        print(text, file=stream or sys.stdout, flush=True)
        log.write(text + "\n")
