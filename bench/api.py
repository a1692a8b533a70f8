"""Benchmark: the authenticated read GET /api/v1/workspace on 1, 2 (or the given) web workers, with wrk.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/api.py [--seconds 10] [--connections 32] [--workers 1 2 4 8] [--wrk-threads 2]

Runs the real ``custody web`` (Sanic) as a child process on a throw-away database
``custody_bench_api``, an API user and its token made by ``domain.auth``, and drives it with
``wrk`` (apt-get install wrk). Prints, for each web-worker count (1 and 2 unless ``--workers`` names others), each line printed as soon as
it is measured:

- GET /health (no token, no database: the framework's own request): the limit;
- GET /api/v1/workspace with a bearer token: requests/s, p50/p99, and the ratio to the limit
  and to the 1,500 requests/s target; the 1 -> 2 workers scaling against 1.7x;
- the SQL statements one authenticated request runs (counted on asyncpg in this process) and,
  with py-spy installed, where a web worker's time goes (top frames of a 5 s profile).

``DEVBENCH_WEB_LOG`` names a file that receives the web workers' output (the scaling runner shows
its tail when a step fails); otherwise it is kept in memory and shown only when a worker does not
start.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))

#: Named after this run: two checkouts benchmarking at once on one server do not drop each other's.
BENCH_DATABASE = f"custody_bench_api_{os.getpid()}"
#: Issue 20 point 3: an authenticated read is at least this share of GET /health on the same workers.
TARGET_SHARE_OF_HEALTH = 0.33
#: Issue 20 point 7: 1 -> 4 web workers.
TARGET_SCALING_1_TO_4 = 3.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def prepare(database_url: str, redis_url: str) -> tuple[str, str, int]:
    """Migrate the bench database, make an API user and a token; count one request's statements."""
    import base64
    import json
    import uuid

    import asyncpg
    from _support import flush_namespace, scratch_data_dir
    from nacl.signing import SigningKey
    from sanic import Sanic

    from api.app import create_app
    from core import clock
    from core.settings import Settings, configure
    from core.unit_of_work import unit_of_work
    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain import auth, companies, users, workspaces

    data_dir = scratch_data_dir()
    settings = configure(Settings(database_url=database_url, redis_url=redis_url, environment="test",
                                  data_dir=data_dir))
    await migrate(settings)
    await open_database(settings)
    broker = setup_broker(settings, namespace=f"custody-bench-api-{os.getpid()}",
                          event_loop=asyncio.get_running_loop())
    key = SigningKey.generate()
    async with unit_of_work():
        company = await companies.create_company(principal=None, name="Bench", email="bench@example.com")
        workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name="Bench",
                                                      network_type="testnet")
        member = await users.create_api_user(principal=None, workspace_id=workspace.id, name="bench", role="VIEWER",
                                             public_key=bytes(key.verify_key))
        data = json.dumps({"client_type": "user", "client_id": str(member.user.id),
                           "timestamp": int(clock.now().timestamp()), "nonce": uuid.uuid4().hex})
        issued = await auth.issue_access_token(data=data,
                                               signature=base64.b64encode(key.sign(data.encode()).signature).decode())
    # Count the statements of one request, in process, on asyncpg itself
    counted: collections.Counter[str] = collections.Counter()
    originals = {}
    for name in ("fetch", "execute", "executemany", "fetchrow", "fetchval"):
        originals[name] = getattr(asyncpg.Connection, name)

        def counting(self, query, *args, __name=name, **kwargs):  # type: ignore[no-untyped-def]
            counted[" ".join(str(query).split())[:90]] += 1
            return originals[__name](self, query, *args, **kwargs)

        setattr(asyncpg.Connection, name, counting)
    Sanic.test_mode = True
    app = create_app(settings, name="custody_bench_api")
    headers = {"Authorization": f"Bearer {issued.access_token}", "X-Workspace-Id": str(workspace.id)}
    await app.asgi_client.get("/api/v1/workspace", headers=headers)  # warm up
    counted.clear()
    _, response = await app.asgi_client.get("/api/v1/workspace", headers=headers)
    assert response.status == 200, response.text
    for name, original in originals.items():
        setattr(asyncpg.Connection, name, original)
    statements = sum(counted.values())
    print(f"SQL statements of one GET /api/v1/workspace: {statements}")
    for query, count in counted.most_common():
        print(f"  {count} x {query}")
    await close_database()
    # What the set-up enqueued (no worker takes this namespace): not left in a shared Redis.
    flush_namespace(redis_url, broker.namespace)
    return issued.access_token, str(workspace.id), statements


def wrk(url: str, seconds: float, connections: int, headers: dict[str, str],
        threads: int = 2) -> tuple[float, float, float]:
    """requests/s, p50 ms and p99 ms of ``url`` under wrk."""
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds:g}s", "--latency", url]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    ran = subprocess.run(command, capture_output=True, text=True, check=False)
    if ran.returncode != 0:
        raise SystemExit(f"wrk exited {ran.returncode} on {url}:\n{ran.stdout}\n{ran.stderr}")
    out = ran.stdout
    if "Non-2xx" in out:
        raise SystemExit(f"wrk saw errors:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]

    def ms(label: str) -> float:
        value, unit = re.search(rf"{label}%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
        return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]

    return rate, ms("50"), ms("99")


def profile(pid: int, seconds: int = 5) -> list[str]:
    """The frames a web worker spends most of its time in (py-spy, sampled while wrk runs)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        return ["(py-spy not installed: no profile)"]
    with tempfile.TemporaryDirectory() as folder:  # gone with the profile once read
        out = Path(folder) / "profile.txt"
        subprocess.run([spy, "record", "--pid", str(pid), "--subprocesses", "--duration", str(seconds), "--format",
                        "raw", "--output", str(out), "--nonblocking"], capture_output=True, check=False)
        if not out.exists():
            return ["(py-spy could not attach: run as root or allow ptrace)"]
        lines = out.read_text().splitlines()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for line in lines:
        stack, _, count = line.rpartition(" ")
        samples = int(count)
        total += samples
        for frame in set(stack.split(";")):
            name = frame.split(" (")[0]
            where = frame.split("/")[-1].rstrip(")") if "/" in frame else ""
            inclusive[f"{name} ({where.split(':')[0]})"] += samples
    return [f"{100 * n / total:5.1f}%  {frame}" for frame, n in inclusive.most_common(40)
            if not frame.startswith(("<module>", "_run_module", "run (", "serve", "_run_once", "run_forever",
                                     "run_until_complete", "main ("))][:18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="web-worker counts, in order")
    parser.add_argument("--wrk-threads", type=int, default=2, help="wrk's threads")
    args = parser.parse_args()
    from _support import drop_database, recreate_database

    from core.settings import get_settings

    env_settings = get_settings()
    if not (env_settings.database_url and env_settings.redis_url):
        raise SystemExit("bench/api.py needs DATABASE_URL and REDIS_URL")
    if not shutil.which("wrk"):
        raise SystemExit("bench/api.py needs wrk (apt-get install wrk)")
    database_url = asyncio.run(recreate_database(env_settings.database_url, BENCH_DATABASE))
    try:
        token, workspace_id, statements = asyncio.run(prepare(database_url, env_settings.redis_url))
        headers = {"Authorization": f"Bearer {token}", "X-Workspace-Id": workspace_id}
        rows, rates = [], {}
        web_log_path = os.environ.get("DEVBENCH_WEB_LOG")
        profiled: list[str] = []
        for workers in args.workers:
            port = free_port()
            web_log = open(web_log_path, "a+b") if web_log_path else tempfile.TemporaryFile()
            env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(BENCH.parent),
                   "CUSTODY_ENV": "development", "LOG_LEVEL": "WARNING"}
            web = subprocess.Popen([sys.executable, "-m", "custody.cli", "web", "--port", str(port), "--workers",
                                    str(workers)], cwd=BENCH.parent, env=env, stdout=subprocess.DEVNULL,
                                   stderr=web_log, start_new_session=True)
            try:
                base = f"http://127.0.0.1:{port}"
                deadline = time.monotonic() + 300  # a loaded 2-core machine may take minutes
                while subprocess.run(["curl", "-sf", f"{base}/health"], capture_output=True).returncode != 0:
                    if time.monotonic() > deadline or web.poll() is not None:
                        web_log.seek(0)
                        raise SystemExit("custody web did not start:\n" + web_log.read().decode()[-3000:])
                    time.sleep(0.2)
                threads = args.wrk_threads
                wrk(f"{base}/api/v1/workspace", 2, args.connections, headers, threads)  # warm up
                limit = wrk(f"{base}/health", args.seconds, args.connections, {}, threads)
                read = wrk(f"{base}/api/v1/workspace", args.seconds, args.connections, headers, threads)
                rates[workers] = read[0]
                rows.append((workers, limit, read))
                # Printed as soon as measured: a later step that fails (a loaded machine) keeps it.
                print(f"{workers} web worker(s): GET /health {limit[0]:.0f} req/s; GET /api/v1/workspace {read[0]:.0f} "
                      f"req/s = {read[0] / limit[0]:.2f} of the limit", flush=True)
                if workers != args.workers[0]:
                    print(f"{args.workers[0]} -> {workers} web workers: {read[0] / rates[args.workers[0]]:.2f}x "
                          f"(GET /health: {limit[0] / rows[0][1][0]:.2f}x)", flush=True)
                if workers == args.workers[0]:
                    load = subprocess.Popen(["wrk", "-t", str(threads), "-c", str(args.connections), "-d", "7s",
                                             f"{base}/api/v1/workspace", *sum((["-H", f"{k}: {v}"]
                                                                              for k, v in headers.items()), [])],
                                            stdout=subprocess.DEVNULL)
                    time.sleep(1)
                    profiled = profile(web.pid)
                    load.wait()
            finally:
                web_log.close()
                web.terminate()
                try:
                    web.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    web.kill()
        print(f"wrk, {args.connections} connections, {args.seconds:g} s per figure")
        for workers, limit, read in rows:
            print(f"{workers} web worker(s): GET /health {limit[0]:.0f} req/s (the limit); GET /api/v1/workspace "
                  f"{read[0]:.0f} req/s, p50 {read[1]:.1f} ms, p99 {read[2]:.1f} ms = {read[0] / limit[0]:.2f} of the "
                  f"limit; target >= {TARGET_SHARE_OF_HEALTH}: ratio {read[0] / limit[0] / TARGET_SHARE_OF_HEALTH:.2f}")
        first = args.workers[0]
        health = {workers: limit[0] for workers, limit, _ in rows}
        for workers in args.workers[1:]:
            scaling = rates[workers] / rates[first]
            # What this machine lets any request scale to, measured in the same run: GET /health
            # on the same workers, with wrk and PostgreSQL sharing the cores.
            health_scaling = health[workers] / health[first]
            line = (f"{first} -> {workers} web workers: {scaling:.2f}x; limit measured in this run: GET /health "
                    f"{health_scaling:.2f}x ({os.cpu_count()} cores shared with PostgreSQL and wrk), the read scales "
                    f"{scaling / health_scaling:.2f} of it")
            if (first, workers) == (1, 4):
                line += f"; target >= {TARGET_SCALING_1_TO_4:g}x: ratio {scaling / TARGET_SCALING_1_TO_4:.2f}"
            print(line)
        print(f"SQL statements per authenticated read: {statements}")
        print("where one web worker's time goes (inclusive share of samples, py-spy):")
        print("\n".join("  " + line for line in profiled))
    finally:
        asyncio.run(drop_database(env_settings.database_url, BENCH_DATABASE))


if __name__ == "__main__":
    main()
