"""Benchmark: withdrawals accepted by POST /transaction, and withdrawals carried to finished.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/withdrawals.py [--requests 2000] [--rounds 4] [--concurrency 32] \\
        [--wallets 16] [--withdrawals 200] [--e2e-rounds 2] [--vaults 16] [--no-e2e]

One run prints:

1. **POST /transaction accepted/s** with p50/p99 latency: ``--requests`` withdrawals through the
   whole API in this process (authentication, validation, destination, fee, the reservation
   under the wallet lock, the transaction row, its change-log position, audit entry, webhook
   event and outbox command, the commit and the enqueue to Redis), ``--concurrency`` requests in
   flight over ``--wallets`` wallets; their SQL statements are counted in an untimed round of
   :data:`COUNTED_REQUESTS` before (the recording costs the API 3-4 % of its CPU), and each
   side makes :data:`WARM_UP` untimed ones of its own before the timed rounds;
2. **raw asyncpg transactions/s** writing the same rows (the transaction with its change-log
   position, its audit entry, its webhook event, its two outbox commands; the wallet and
   address-version updates)
   with the same pool size and concurrency: what the database alone costs. The ratio of the two
   is the figure. The two take turns in ``--rounds`` rounds each (API, raw, API, raw, ...), so
   that a drift of this shared host's speed within the run weighs on both alike; the rates are
   over all rounds, and each round's ratio is printed too;
3. **create → finished/s** and p50/p99 latency on the devnet with instant blocks (a block as soon
   as the mempool holds a transfer, the tracker right after), through the real processes: a
   ``--workers`` general worker processes and the two signer processes (``custody.isolated_worker``,
   each signer with only its own queue and key), ``--withdrawals`` withdrawals over ``--vaults`` vaults (in
   ``--workspaces`` workspaces) whose keys came from the DKG with an in-process co-signer;
4. **threshold signatures/s** through the same processes (signing sessions alone, no
   withdrawal around them), and the ratio of (3) to it: what the pipeline costs beyond signing.
   The two take turns in ``--e2e-rounds`` rounds (withdrawals, signatures, withdrawals, ...), as
   (1) and (2) do: a single signature phase of about a second weighed a drift of this shared
   host's speed on the ratio alone (two runs of the same code: 0.099 and 0.064). The rates are
   over all rounds, and each round's ratio is printed too.

Beside the ratio it prints its bound on this machine: what (3) could reach if nothing but the
creation (the machine's CPU per request of (1)) and the signature (per signature of (4)) cost
anything, and how much of the machine a withdrawal's other steps may spend for the target.

Both (3) and (4) run in the steady state: the signers' nonce stocks are filled first
(:func:`fill_nonce_stocks`). Beside them it prints the statements of the general workers, the
signers and the tracker (which runs in this process) and the machine's CPU by process.

It creates (and drops) its own database ``custody_bench_withdrawals_<pid>`` (``CUSTODY_BENCH_DATABASE``
names another), so that runs side by side on one server never drop each other's, and uses its
own Redis namespace.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import contextvars
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: Its database, one per run (CUSTODY_BENCH_DATABASE names another): two runs must not share one.
BENCH_DATABASE = os.environ.get("CUSTODY_BENCH_DATABASE", f"custody_bench_withdrawals_{os.getpid()}")
#: Statements on these tables are the request's authentication (domain.auth: the token, the
#: caller's memberships), counted apart: a per-process token cache serves them (issue 20 point 3).
AUTHENTICATION_TABLES = ('"access_tokens"', '"workspace_members"')
ETH = 10**18
TARGET = "0x" + "ab" * 20
#: POST /transaction requests whose SQL statements are counted, in an untimed round of their own.
COUNTED_REQUESTS = 200
#: Untimed requests (and raw transactions) each side makes before the timed rounds. The raw side
#: reached its steady rate only after about 1,500 of its own: with a warm-up of 200, its first
#: timed round ran at 1,218-1,547/s against 1,700-2,300/s for the later ones (six runs).
WARM_UP = 1500
#: The secp256k1 generator, compressed: a valid group key for the schemes other than Ed25519.
SECP256K1_G = bytes.fromhex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class AppClient:
    """Requests into the app in-process: its start-up once (ASGI lifespan), then httpx over ASGI."""

    def __init__(self, app: Any) -> None:
        import httpx

        self.app = app
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://bench", timeout=60)
        self._to_app: asyncio.Queue = asyncio.Queue()
        self._from_app: asyncio.Queue = asyncio.Queue()
        self._lifespan: asyncio.Task | None = None

    async def start(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}}
        self._lifespan = asyncio.create_task(self.app(scope, self._to_app.get, self._from_app.put))
        await self._to_app.put({"type": "lifespan.startup"})
        await self._from_app.get()

    async def stop(self) -> None:
        await self.http.aclose()
        if self._lifespan is not None:
            await self._to_app.put({"type": "lifespan.shutdown"})
            await self._from_app.get()
            await self._lifespan

    async def request(self, method: str, path: str, *, json_body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, Any]:
        response = await self.http.request(method, path, json=json_body, headers=headers or {})
        return response.status_code, (response.json() if response.content else None)


async def api_user(workspace_id: uuid.UUID, role: str = "ADMIN") -> tuple[Any, str, Any]:
    """An API user of the workspace: (member, access token, signing key)."""
    from nacl.signing import SigningKey

    from core import clock
    from core.unit_of_work import unit_of_work
    from domain import auth, users

    key = SigningKey.generate()
    async with unit_of_work():
        member = await users.create_api_user(principal=None, workspace_id=workspace_id, name=f"bench-{role.lower()}",
                                             role=role, public_key=bytes(key.verify_key))
        data = json.dumps({"client_type": "user", "client_id": str(member.user.id),
                           "timestamp": int(clock.now().timestamp()), "nonce": uuid.uuid4().hex})
        issued = await auth.issue_access_token(data=data,
                                               signature=base64.b64encode(key.sign(data.encode()).signature).decode())
    return member, issued.access_token, key


async def new_workspace() -> Any:
    from core.unit_of_work import unit_of_work
    from domain import companies, whitelist, workspaces

    async with unit_of_work():
        company = await companies.create_company(principal=None, name="Bench", email="bench@example.com")
        workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name="Bench",
                                                      network_type="testnet")
        await whitelist.set_settings(principal=None, workspace_id=workspace.id, one_time_addresses_allowed=True)
    return workspace


# --------------------------------------------------------------------------------------------
# 1 and 2: accepted by the API, against raw asyncpg
# --------------------------------------------------------------------------------------------


async def mark_key_sets_ready(vault_id: uuid.UUID) -> None:
    """Mark every key set of a new vault ready under a plain key (one per scheme its workspace's
    networks sign with): for benches that sign nothing, instead of running the DKG."""
    from nacl.signing import SigningKey

    from core import clock
    from models.keys import KeySet
    from threshold.scheme import ED25519_SCHEME

    for key_set in await KeySet.filter(vault_id=vault_id):
        key_set.status, key_set.group_public_key = "ready", (
            bytes(SigningKey.generate().verify_key) if key_set.scheme == ED25519_SCHEME else SECP256K1_G)
        key_set.verifying_shares, key_set.ready_at = {}, clock.now()
        await key_set.save()


def _load_main(pipe: Any, url: str, headers: dict[str, str], sources: list[str], concurrency: int) -> None:
    """The load generator (a child process, so its CPU is not the API's): POSTs over real HTTP,
    a warm-up of 100, then one round per ``(first, count)`` the pipe sends (None ends it), each
    answered with ``(elapsed, latencies, statuses, the machine's CPU meanwhile)``."""
    import aiohttp

    async def go() -> None:
        limit = asyncio.Semaphore(concurrency)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:
            async def post(index: int, latencies: list[float], statuses: dict[int, int]) -> None:
                body = {"amount": str(1000 + index), "source_wallet_id": sources[index % len(sources)],
                        "target_address": TARGET}
                async with limit:
                    start = time.perf_counter()
                    async with session.post(url, json=body, headers=headers) as response:
                        await response.read()
                    latencies.append(time.perf_counter() - start)
                    statuses[response.status] = statuses.get(response.status, 0) + 1

            await asyncio.gather(*(post(-1 - i, [], {}) for i in range(100)))  # warm up
            pipe.send("ready")
            while (order := pipe.recv()) is not None:
                first, count = order
                latencies: list[float] = []
                statuses: dict[int, int] = {}
                before = machine_cpu()
                start = time.perf_counter()
                await asyncio.gather(*(post(i, latencies, statuses) for i in range(first, first + count)))
                elapsed = time.perf_counter() - start
                pipe.send((elapsed, latencies, statuses, machine_cpu_since(before)))

    asyncio.run(go())


async def _answer(pipe: Any) -> Any:
    """The load generator's next answer, waited for without blocking this process's event loop."""
    while not pipe.poll():
        await asyncio.sleep(0.002)
    return pipe.recv()


def _sum_machine(parts: list[dict[str, float]]) -> dict[str, float]:
    """The machine's CPU of several rounds (:func:`machine_cpu_since`) as one: seconds summed, cores
    busy weighted by the rounds' machine seconds."""
    total = {name: sum(part[name] for part in parts) for name in parts[0] if name != "busy"}
    total["busy"] = sum(part["busy"] * part["machine"] for part in parts) / max(total["machine"], 1e-9)
    return total


async def accepted_per_second(settings: Any, requests: int, concurrency: int, wallet_count: int,
                              rounds: int) -> dict[str, Any]:
    import multiprocessing

    from _support import counting_statements
    from tortoise import connections

    from core.unit_of_work import unit_of_work
    from domain import balances, vaults, wallets
    from tests.support.serving import served_api

    workspace = await new_workspace()
    _, token, _ = await api_user(workspace.id)
    sources = []
    for index in range(wallet_count):
        # A vault whose key set is marked ready under a plain Ed25519 key: this part signs nothing.
        async with unit_of_work():
            view = await vaults.create_vault(principal=None, workspace_id=workspace.id, name=f"Bench {index}")
            await mark_key_sets_ready(view.vault.id)
        async with unit_of_work():
            (opened,) = await wallets.create_wallet(principal=None, workspace=workspace, vault_id=view.vault.id,
                                                    currency_id="DETH_TEST")
            locked = await balances.lock_wallets([opened.wallet.id])
            await balances.apply_change(wallet=locked[opened.wallet.id], total=10**6 * ETH)
        sources.append(str(opened.wallet.id))

    # The API served on a real socket by this process (one API process, as `custody web` runs one
    # worker by default); the requests come from a child process over HTTP.
    # The API and raw asyncpg take turns, ``rounds`` rounds each (API, raw, API, raw, ...): this
    # host's speed drifts within a run, and alternating rounds give both the same drift.
    sizes = [requests // rounds + (1 if index < requests % rounds else 0) for index in range(rounds)]
    firsts = [sum(sizes[:index]) for index in range(rounds)]
    api_rounds: list[tuple[float, list[float], dict[int, int], dict[str, float]]] = []
    raw_rounds: list[tuple[float, list[float], float, dict[str, float]]] = []
    api_cpu = 0.0
    raw_round = None
    async with served_api(settings, name="custody_bench_withdrawals") as port:
        headers = {"Authorization": f"Bearer {token}", "X-Workspace-Id": str(workspace.id)}
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        load = context.Process(target=_load_main, args=(child, f"http://127.0.0.1:{port}/api/v1/transaction", headers,
                                                        sources, concurrency), daemon=True)
        load.start()
        try:
            await _answer(parent)  # warmed up
            # Count the SQL statements the API runs (asyncpg in this process; BEGIN and COMMIT
            # included) in a round of their own, before the timed ones: the recording folds the
            # whitespace of every statement, 3-4 % of the API's CPU that the raw rounds never pay.
            with counting_statements() as counted:
                parent.send((requests, COUNTED_REQUESTS))
                counted_round = await _answer(parent)
            if counted_round[2] != {201: COUNTED_REQUESTS}:
                raise SystemExit(f"POST /transaction answered {counted_round[2]}")
            parent.send((requests + COUNTED_REQUESTS, WARM_UP))  # untimed, as the raw side's below
            if (warmed := await _answer(parent))[2] != {201: WARM_UP}:
                raise SystemExit(f"POST /transaction answered {warmed[2]}")
            for first, size in zip(firsts, sizes):
                # This process serves only the API meanwhile (its every thread).
                cpu_before = time.process_time()
                parent.send((first, size))
                api_rounds.append(await _answer(parent))
                api_cpu += time.process_time() - cpu_before
                if raw_round is None:
                    raw_round = await _raw_asyncpg(settings, sources, concurrency)
                    await raw_round(requests, WARM_UP)  # untimed, as the API's above
                measured = await raw_round(first, size)
                assert measured is not None
                raw_rounds.append(measured)
            parent.send(None)
        finally:
            load.join(timeout=10)
            if raw_round is not None:
                await raw_round(0, 0)  # its pool closed
    statuses: dict[int, int] = {}
    for _, _, round_statuses, _ in api_rounds:
        for status, count in round_statuses.items():
            statuses[status] = statuses.get(status, 0) + count
    if statuses.get(201, 0) != requests:
        raise SystemExit(f"POST /transaction answered {statuses}")
    latencies = [latency for _, round_latencies, _, _ in api_rounds for latency in round_latencies]
    raw_latencies = [latency for _, round_latencies, _, _ in raw_rounds for latency in round_latencies]
    api_rate = requests / sum(elapsed for elapsed, *_ in api_rounds)
    raw_rate = requests / sum(elapsed for elapsed, *_ in raw_rounds)
    api_machine = _sum_machine([machine for *_, machine in api_rounds])
    raw_machine = _sum_machine([machine for *_, machine in raw_rounds])
    raw_cpu = sum(cpu for _, _, cpu, _ in raw_rounds)
    total = sum(counted.values()) / COUNTED_REQUESTS
    authentication = sum(n for q, n in counted.items()
                         if any(t in q for t in AUTHENTICATION_TABLES)) / COUNTED_REQUESTS
    print(f"SQL statements per POST /transaction (this process, asyncpg, BEGIN/COMMIT and the enqueue after "
          f"commit included): {total:.1f}; without authentication (the bearer token and the caller's "
          f"memberships: {authentication:.1f}): {total - authentication:.1f}; target <= 10")
    for query, count in counted.most_common():
        print(f"  {count / COUNTED_REQUESTS:5.2f}  {query}")
    return {"api_rate": api_rate, "api_p50": statistics.median(latencies), "api_p99": percentile(latencies, 0.99),
            "api_cpu_ms": 1000 * api_cpu / requests, "raw_cpu_ms": 1000 * raw_cpu / requests,
            "raw_rate": raw_rate, "raw_p50": statistics.median(raw_latencies),
            "raw_p99": percentile(raw_latencies, 0.99), "pool": connections.get("default").pool_maxsize,
            "rounds": [(size / api[0], size / raw[0]) for size, api, raw in zip(sizes, api_rounds, raw_rounds)],
            # Per request or transaction, in ms (the API's machine CPU: from the load generator)
            "api_machine": {name: 1000 * value / requests for name, value in api_machine.items() if name != "busy"},
            "api_busy": api_machine["busy"],
            "raw_machine": {name: 1000 * value / requests for name, value in raw_machine.items() if name != "busy"},
            "raw_busy": raw_machine["busy"]}


async def _raw_asyncpg(settings: Any, sources: list[str], concurrency: int) -> Any:
    """Rounds of the same rows written with raw asyncpg, one database transaction per withdrawal,
    after the API wrote some (their templates): ``await round(first, count)`` runs one and answers
    ``(elapsed, latencies, this process's CPU, the machine's CPU)``; ``round(0, 0)`` closes its pool."""
    import asyncpg
    from tortoise import connections

    from core.commit_order import NEXT_POSITION_SQL
    from core.db import keep_session

    wallet_count = len(sources)
    limit = asyncio.Semaphore(concurrency)
    conn = connections.get("default")
    pool_size = conn.pool_maxsize
    template = (await conn.execute_query_dict(
        "SELECT * FROM transactions WHERE direction = 'withdrawal' ORDER BY created_at DESC LIMIT 1"))[0]
    audit = (await conn.execute_query_dict("SELECT * FROM audit_log WHERE object_id = $1",
                                           [str(template["id"])]))[0]
    event = (await conn.execute_query_dict("SELECT * FROM webhook_events WHERE payload LIKE $1 LIMIT 1",
                                           [f'%"id":"{template["id"]}"%']))[0]
    commands = await conn.execute_query_dict("SELECT * FROM outbox_commands ORDER BY created_at DESC LIMIT 2")
    addresses = {r["id"]: r["address_id"] for r in await conn.execute_query_dict(
        "SELECT id, address_id FROM wallets WHERE id = ANY($1::uuid[])", [[uuid.UUID(s) for s in sources]])}

    def insert_sql(table: str, row: dict[str, Any]) -> tuple[str, list[str]]:
        # The change-log position is computed in the insert itself (core/commit_order.py: no lock)
        columns = [c for c in row if not (table == "transactions" and c == "seq")]
        extra = ", seq" if table == "transactions" else ""
        position = f", {NEXT_POSITION_SQL}" if table == "transactions" else ""
        return (f"INSERT INTO {table} ({', '.join(columns)}{extra}) VALUES "
                f"({', '.join(f'${i + 1}' for i in range(len(columns)))}{position})", columns)

    statements = {name: insert_sql(table, row) for name, table, row in (
        ("tx", "transactions", template), ("audit", "audit_log", audit), ("event", "webhook_events", event),
        ("command", "outbox_commands", commands[0]))}
    # Released connections are reset as the service's pool resets them (not at all beyond asyncpg's
    # rollback): asyncpg's default reset is one more round trip per transaction, which the raw
    # rounds paid and the API did not (6 % of this process's CPU in a profile).
    pool = await asyncpg.create_pool(re.sub(r"[?&]maxsize=\d+", "", settings.database_url), min_size=pool_size,
                                     max_size=pool_size, reset=keep_session)

    async def raw(index: int, latencies: list[float]) -> None:
        wallet_id = uuid.UUID(sources[index % wallet_count])
        async with limit, pool.acquire() as db:
            start = time.perf_counter()
            async with db.transaction():
                await db.execute("UPDATE wallet_addresses SET balance_version = balance_version + 1 WHERE id = $1",
                                 addresses[wallet_id])
                await db.execute("UPDATE wallets SET held = held + $2 WHERE id = $1", wallet_id, 1000 + index)
                tx_id = uuid.uuid4()
                for name, overrides in (("tx", {"id": tx_id, "wallet_id": wallet_id,
                                                 "amount": 1000 + index}),
                                        ("audit", {"id": uuid.uuid4(), "object_id": str(tx_id)}),
                                        ("event", {"id": uuid.uuid4()}),
                                        ("command", {"id": uuid.uuid4()}), ("command", {"id": uuid.uuid4()})):
                    sql, columns = statements[name]
                    row = {"tx": template, "audit": audit, "event": event, "command": commands[0]}[name]
                    await db.execute(sql, *[overrides.get(c, row[c]) for c in columns])
            latencies.append(time.perf_counter() - start)

    async def one_round(first: int, count: int) -> tuple[float, list[float], float, dict[str, float]] | None:
        if count == 0:
            await pool.close()
            return None
        latencies: list[float] = []
        start, cpu_before, machine_before = time.perf_counter(), time.process_time(), machine_cpu()
        await asyncio.gather(*(raw(index, latencies) for index in range(first, first + count)))
        elapsed = time.perf_counter() - start
        return elapsed, latencies, time.process_time() - cpu_before, machine_cpu_since(machine_before)

    return one_round


# --------------------------------------------------------------------------------------------
# 3 and 4: create → finished through the real worker and signer processes
# --------------------------------------------------------------------------------------------


def start_process(settings: Any, namespace: str, queues: list[str], *, threads: int,
                  participant: int | None = None, counts: Path | None = None) -> subprocess.Popen:
    """A worker process (custody.isolated_worker); with ``counts``, its SQL statements are counted
    (bench/_counting_worker.py: :func:`statement_counts` reads them)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": settings.database_url,
           "REDIS_URL": settings.redis_url, "CUSTODY_ENV": "test", "CUSTODY_DATA_DIR": str(settings.data_dir),
           "LOG_LEVEL": "WARNING"}
    env.pop("SIGNER_1_SHARE_KEY", None)
    env.pop("SIGNER_2_SHARE_KEY", None)
    if participant is not None:
        env["SIGNER_PARTICIPANT"] = str(participant)
    entry = ["-m", "custody.isolated_worker"] if counts is None else [str(ROOT / "bench" / "_counting_worker.py"),
                                                                       str(counts)]
    return subprocess.Popen([sys.executable, *entry, "--namespace", namespace,
                             "--threads", str(threads), "--queues", *queues], cwd=ROOT, env=env)


def statement_counts(process: subprocess.Popen, counts: Path) -> collections.Counter[str]:
    """The SQL statements a counting worker process (:func:`start_process`) ran so far, by text."""
    before = counts.stat().st_mtime_ns if counts.exists() else 0
    process.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while not counts.exists() or counts.stat().st_mtime_ns == before:
        if time.monotonic() > deadline:
            raise SystemExit("a worker process did not write its statement counts")
        time.sleep(0.01)
    return collections.Counter(json.loads(counts.read_text()))


def machine_cpu() -> dict[str, Any]:
    """Where the machine's CPU stands now (read again by :func:`machine_cpu_since`): every core's,
    PostgreSQL's and Redis's (every database's work) and this process's."""
    from _support import machine_ticks, server_cpu_seconds

    return {"ticks": machine_ticks(), "postgres": server_cpu_seconds("postgres"),
            "redis-server": server_cpu_seconds("redis-server"), "this process": time.process_time()}


def machine_cpu_since(before: dict[str, Any]) -> dict[str, float]:
    """CPU seconds spent since ``before`` (:func:`machine_cpu`): ``machine`` (with ``busy``, the
    cores it kept busy on average), ``postgres``, ``redis-server`` and ``this process``."""
    now = machine_cpu()
    busy_ticks, all_ticks = now["ticks"][0] - before["ticks"][0], max(now["ticks"][1] - before["ticks"][1], 1)
    return {"machine": busy_ticks / os.sysconf("SC_CLK_TCK"), "busy": busy_ticks / all_ticks * (os.cpu_count() or 1),
            **{name: now[name] - before[name] for name in now if name != "ticks"}}


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the process used so far (Linux /proc)."""
    from _support import process_cpu_seconds

    return process_cpu_seconds(pid)


async def create_to_finished(settings: Any, namespace: str, withdrawals: int, vault_count: int,
                             general_workers: int, workspace_count: int, rounds: int) -> dict[str, Any]:
    from nacl import pwhash
    from sanic import Sanic

    from actors import withdrawals as withdrawal_actors
    from api.app import create_app
    from client.cosigner import CoSigner, Credentials, ShareStore
    from core.unit_of_work import unit_of_work
    from custody.processes import general_queues
    from custody.wiring import setup_broker
    from domain import deposits, vaults, wallets
    from domain.networks import devnet_chain
    from domain.signing import cosigner as cosigner_seat
    from domain.signing import sessions
    from domain.withdrawals import create
    from domain.withdrawals.create import WithdrawalRequest
    from models.devnet import DevnetTransaction
    from models.keys import KeySet
    from models.sessions import SigningSession
    from models.transactions import Transaction
    from tests.support.statements import recording_statements
    from threshold.cosigner_part import KdfParams

    network = "devnet-evm-testnet"
    broker = setup_broker(settings, worker=False, namespace=namespace)  # what this process enqueues goes there
    counts = [Path(settings.data_dir) / f"statements-{index}.json" for index in range(general_workers + 2)]
    processes = [*(start_process(settings, namespace, general_queues(), threads=8, counts=counts[index])
                   for index in range(general_workers)),
                 start_process(settings, namespace, ["signer_1"], threads=8, participant=1, counts=counts[-2]),
                 start_process(settings, namespace, ["signer_2"], threads=8, participant=2, counts=counts[-1])]
    Sanic.test_mode = True
    app_client = AppClient(create_app(settings, name="custody_bench_withdrawals_e2e"))
    await app_client.start()
    cleanup = contextlib.ExitStack()
    try:
        # Workspaces, each with its co-signer (an API user); vault i belongs to workspace i % count
        workspaces, cosigners = [], []
        for index in range(workspace_count):
            workspace = await new_workspace()
            member, _, cosigner_key = await api_user(workspace.id, role="SIGNER")
            async with unit_of_work():  # only the designated co-signer takes a key set's seat
                await cosigner_seat.designate(principal=None, workspace_id=workspace.id, user_id=member.user.id)
            workspaces.append(workspace)
            cosigners.append(CoSigner(
                app_client,
                credentials=Credentials(base_url="http://bench", workspace_id=str(workspace.id),
                                        client_id=str(member.user.id), client_type="user", signing_key=cosigner_key),
                store=ShareStore(settings.data_dir / f"cosigner-{index}", b"bench",
                                 params=KdfParams(pwhash.argon2id.OPSLIMIT_MIN, pwhash.argon2id.MEMLIMIT_MIN))))
        vault_ids = []
        for index in range(vault_count):
            async with unit_of_work():
                view = await vaults.create_vault(principal=None, workspace_id=workspaces[index % workspace_count].id,
                                                 name=f"Vault {index}")
            vault_ids.append(view.vault.id)
        deadline = time.monotonic() + 300
        while await KeySet.filter(vault_id__in=vault_ids).exclude(status__in=["ready", "failed"]).exists():
            if time.monotonic() > deadline:
                raise SystemExit("key generation did not finish (are the worker processes running?)")
            for cosigner in cosigners:
                await cosigner.step()
            await asyncio.sleep(0.05)
        if await KeySet.filter(vault_id__in=vault_ids, status="failed").exists():
            raise SystemExit("a key generation failed")
        sources = []
        for index, vault_id in enumerate(vault_ids):
            workspace = workspaces[index % workspace_count]
            async with unit_of_work():
                (made,) = await wallets.create_wallet(principal=None, workspace=workspace, vault_id=vault_id,
                                                      currency_id="DETH_TEST")
                await devnet_chain.faucet(network_id=network, address=made.address.address, amount=1000 * ETH)
            sources.append((workspace, made.wallet.id))
        async with unit_of_work():
            await devnet_chain.produce_block(network_id=network)
        while True:
            async with unit_of_work():
                if await deposits.scan_next_block(network_id=network) is None:
                    break
        await fill_nonce_stocks(workspaces[0].id, vault_ids[0])

        stop = asyncio.Event()
        #: The chain runs while withdrawals are measured only: its polls (every 5 ms) would take
        #: CPU from the signatures alone.
        chain_on = asyncio.Event()
        # The tracker's statements (it runs in this process, beside the creations): counted by the
        # context its tasks inherit, so that the creations' statements stay out
        tracking: contextvars.ContextVar[bool] = contextvars.ContextVar("tracking", default=False)
        tracker_statements: collections.Counter[str] = collections.Counter()

        def count_tracker(statement: str) -> None:
            if tracking.get():
                tracker_statements[statement[:100]] += 1

        async def chain() -> None:
            """Instant blocks: mine as soon as a transfer waits, then track what was broadcast."""
            while not stop.is_set():
                await chain_on.wait()
                if await DevnetTransaction.exists(network=network, status="pending"):
                    async with unit_of_work():
                        await devnet_chain.produce_block(network_id=network)
                token = tracking.set(True)
                try:
                    await withdrawal_actors.track()  # what the scheduled withdrawals.track runs
                finally:
                    tracking.reset(token)
                await asyncio.sleep(0.005)

        cleanup.enter_context(recording_statements(count_tracker))  # left in the finally below
        chain_task = asyncio.create_task(chain())
        creating = asyncio.Semaphore(8)

        def snapshot() -> tuple[list[collections.Counter[str]], list[float], dict[str, Any]]:
            return ([statement_counts(process, path) for process, path in zip(processes, counts)],
                    [cpu_seconds(process.pid) for process in processes], machine_cpu())

        def since(before: tuple[list[collections.Counter[str]], list[float], dict[str, Any]],
                  ) -> tuple[list[collections.Counter[str]], list[float], dict[str, float]]:
            statements_before, cpu_before, machine_before = before
            machine = machine_cpu_since(machine_before)
            return ([statement_counts(process, path) - earlier for process, path, earlier
                     in zip(processes, counts, statements_before)],
                    [cpu_seconds(process.pid) - earlier for process, earlier in zip(processes, cpu_before)], machine)

        async def withdrawal_round(number: int) -> dict[str, Any]:
            """``withdrawals`` withdrawals created (8 at a time) and carried to finished."""
            created: list[uuid.UUID] = []

            async def make(index: int) -> None:
                workspace, wallet_id = sources[index % vault_count]
                async with creating, unit_of_work():
                    made = await create.create_withdrawal(principal=None, workspace=workspace, request=WithdrawalRequest(
                        amount=1000 + number * withdrawals + index, source_wallet_id=wallet_id, target_address=TARGET))
                created.append(made.transaction.id)

            chain_on.set()
            before = snapshot()
            start = time.time()
            await asyncio.gather(*(make(index) for index in range(withdrawals)))
            created_in = time.time() - start
            deadline = time.monotonic() + 600
            while await Transaction.filter(id__in=created).exclude(status__in=["finished", "failed"]).exists():
                if time.monotonic() > deadline:
                    raise SystemExit("the withdrawals did not finish within 600 s")
                await asyncio.sleep(0.02)
            statements, cpu, machine = since(before)
            chain_on.clear()
            rows = await Transaction.filter(id__in=created)
            failed = [r for r in rows if r.status != "finished"]
            if failed:
                raise SystemExit(f"{len(failed)} withdrawals failed, e.g. {failed[0].error_code}: "
                                 f"{failed[0].error_message}")
            finished_at = max(r.updated_at for r in rows).timestamp()
            return {"created": created, "seconds": finished_at - start, "created_in": created_in,
                    "latencies": [(r.updated_at - r.created_at).total_seconds() for r in rows],
                    "statements": statements, "cpu": cpu, "machine": machine}

        async def signature_round(number: int) -> dict[str, Any]:
            """As many signatures alone through the same processes, spread over the vaults (requested 8
            at a time, as the withdrawals are created)."""
            session_ids: list[uuid.UUID] = []

            async def request(index: int) -> None:
                async with creating, unit_of_work():
                    session = await sessions.request_signature(
                        workspace_id=sources[index % vault_count][0].id, vault_id=vault_ids[index % vault_count],
                        message=f"bench {number} {index}".encode(), purpose="bench")
                session_ids.append(session.id)

            before = snapshot()
            start = time.time()
            await asyncio.gather(*(request(index) for index in range(withdrawals)))
            while await SigningSession.filter(id__in=session_ids, status__in=["round1", "round2"]).exists():
                await asyncio.sleep(0.02)
            statements, cpu, machine = since(before)
            completed = await SigningSession.filter(id__in=session_ids)
            return {"seconds": max(s.completed_at or s.updated_at for s in completed).timestamp() - start,
                    "statements": statements, "cpu": cpu, "machine": machine}

        # The two take turns (withdrawals, signatures, withdrawals, ...), as bench point 2's API and
        # raw rounds do: a drift of this shared host's speed within the run weighs on both alike.
        withdrawal_rounds, signature_rounds = [], []
        for number in range(rounds):
            withdrawal_rounds.append(await withdrawal_round(number))
            signature_rounds.append(await signature_round(number))
        stop.set()
        chain_on.set()
        await chain_task
        created = [transaction_id for done in withdrawal_rounds for transaction_id in done["created"]]
        total = withdrawals * rounds
        statements: collections.Counter[str] = collections.Counter()
        signer_statements: collections.Counter[str] = collections.Counter()
        for done in withdrawal_rounds:
            for index, counted in enumerate(done["statements"]):
                (statements if index < general_workers else signer_statements).update(counted)
        cpu = [sum(done["cpu"][index] for done in withdrawal_rounds) for index in range(len(processes))]
        cpu_signing = [sum(done["cpu"][index] for done in signature_rounds) for index in range(len(processes))]
        signing_statements = [sum(sum(done["statements"][index].values()) for done in signature_rounds)
                              for index in range(len(processes))]
        machine_withdrawals = _sum_machine([done["machine"] for done in withdrawal_rounds])
        machine_signatures = _sum_machine([done["machine"] for done in signature_rounds])
        latencies = [latency for done in withdrawal_rounds for latency in done["latencies"]]
        withdrawal_rate = total / sum(done["seconds"] for done in withdrawal_rounds)
        signing_rate = total / sum(done["seconds"] for done in signature_rounds)
        stages = await stage_times(created)
        cycles = await lane_cycles([done["created"] for done in withdrawal_rounds])
        from core.outbox import Command

        # Only these withdrawals' commands: the API part's (its checks) are in the same database.
        ours = {str(transaction_id) for transaction_id in created}
        sent = await Command.filter(actor_name__startswith="withdrawals.").values_list("payload", "enqueue_count")
        messages = sum(int(n) for payload, n in sent if (payload or {}).get("transaction_id") in ours) / total
        return {"withdrawals": total, "rate": withdrawal_rate, "p50": statistics.median(latencies),
                "p99": percentile(latencies, 0.99),
                "signing_rate": signing_rate, "created_in": max(done["created_in"] for done in withdrawal_rounds),
                "rounds": [(withdrawals / w["seconds"], withdrawals / s["seconds"])
                           for w, s in zip(withdrawal_rounds, signature_rounds)],
                "stages": stages, "cycles": cycles, "cpu_general": sum(cpu[:general_workers]) / total,
                "cpu_signers": sum(cpu[general_workers:]) / total, "messages": messages,
                "statements": statements, "signer_statements": signer_statements,
                "signing_statements": (sum(signing_statements[:general_workers]) / total,
                                       sum(signing_statements[general_workers:]) / total),
                "tracker_statements": sum(tracker_statements.values()) / total,
                "tracker_top": tracker_statements.most_common(8),
                "machine_per_withdrawal": machine_withdrawals["machine"] / total,
                "machine_busy": machine_withdrawals["busy"],
                "machine_per_signature": machine_signatures["machine"] / total,
                "machine_busy_signing": machine_signatures["busy"],
                "signing_parts": {"the general worker process(es)": sum(cpu_signing[:general_workers]) / total,
                                  "the signer processes": sum(cpu_signing[general_workers:]) / total,
                                  **{name: machine_signatures[name] / total
                                     for name in ("postgres", "redis-server", "this process")}},
                "servers": {name: machine_withdrawals[name] / total for name in ("postgres", "redis-server")},
                "this_process": machine_withdrawals["this process"] / total}
    finally:
        cleanup.close()
        await app_client.stop()
        broker.close()
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


async def fill_nonce_stocks(workspace_id: uuid.UUID, vault_id: uuid.UUID) -> None:
    """Warm up and wait for the signers' nonce stocks to be full (domain/signing/nonces.py), so
    that both measured parts run in the steady state: a first request finds the new stocks empty
    and nudges their refill (up to ``TARGET`` pairs per signer), which would otherwise run, and
    be counted, inside whichever part came first."""
    from tortoise import connections

    from core.unit_of_work import unit_of_work
    from domain.signing import nonces, sessions
    from models.sessions import SigningSession

    async with unit_of_work():
        session = await sessions.request_signature(workspace_id=workspace_id, vault_id=vault_id,
                                                   message=b"bench warm-up", purpose="bench")
    deadline = time.monotonic() + 300
    while True:
        if time.monotonic() > deadline:
            raise SystemExit("the signers' nonce stocks did not fill within 300 s")
        rows = await connections.get("default").execute_query_dict(
            "SELECT holder, count(*) AS n FROM single_use_stock WHERE state = 'available' GROUP BY holder")
        done = not await SigningSession.filter(id=session.id, status__in=["round1", "round2"]).exists()
        if done and len(rows) >= 2 and min(int(row["n"]) for row in rows) >= nonces.TARGET:
            return
        await asyncio.sleep(0.1)


#: The statuses a withdrawal passes on its way to finished, in order (their audit entries).
STAGES = ("created", "checks", "approved", "signing", "awaiting_broadcast", "broadcast", "finished")


async def stage_times(transaction_ids: list[uuid.UUID]) -> dict[str, tuple[float, float]]:
    """Where the time went: for each step between two statuses, the p50 and p99 (seconds) over
    the withdrawals, from their audit entries' times (the time each change was written)."""
    from models.audit import AuditEntry

    seen: dict[str, dict[str, Any]] = collections.defaultdict(dict)
    for entry in await AuditEntry.filter(object_type="transaction", object_id__in=[str(i) for i in transaction_ids],
                                         action__in=[f"withdrawal.{stage}" for stage in STAGES]).values(
            "object_id", "action", "created_at"):
        seen[entry["object_id"]].setdefault(entry["action"].split(".", 1)[1], entry["created_at"])
    # The signing step split: the session's own time, and from its completion to the next status
    from models.sessions import SigningSession

    for session in await SigningSession.filter(purpose__in=[f"withdrawal:{i}" for i in transaction_ids]).values(
            "purpose", "created_at", "completed_at"):
        if session["completed_at"] is not None:
            times = seen[session["purpose"].split(":", 1)[1]]
            times["session requested"], times["session completed"] = session["created_at"], session["completed_at"]
    out = {}
    for before, after in (("signing", "session requested"), ("session requested", "session completed"),
                          ("session completed", "awaiting_broadcast")):
        spans = [(times[after] - times[before]).total_seconds() for times in seen.values()
                 if before in times and after in times]
        if spans:
            out[f"{before} -> {after}"] = (statistics.median(spans), percentile(spans, 0.99))
    for before, after in zip(STAGES, STAGES[1:]):
        spans = [(times[after] - times[before]).total_seconds() for times in seen.values()
                 if before in times and after in times]
        if spans:
            out[f"{before} -> {after}"] = (statistics.median(spans), percentile(spans, 0.99))
    return out


#: One lane cycle, split: the marks of withdrawal n of a lane, in order, ending at the next
#: withdrawal's ``signing`` (what a lane does between two signatures).
CYCLE_MARKS = ("signing", "share 1", "share 2", "session completed", "awaiting_broadcast",
               "broadcast started", "broadcast", "next sign started", "next signing")


async def lane_cycles(rounds: list[list[uuid.UUID]]) -> dict[str, Any]:
    """Where a lane cycle's time goes: per withdrawal, from its ``signing`` change to the next
    withdrawal of its source address's ``signing`` change in the same round (``rounds``: the ids of
    each), the marks of :data:`CYCLE_MARKS` (audit entries, the session's shares and completion,
    the outbox commands' start times); p50 / p99 of each step between two marks, and of the whole
    cycle."""
    from core.outbox import Command
    from models.audit import AuditEntry
    from models.sessions import SigningSession, SigningShare
    from models.transactions import Transaction

    round_of = {str(i): number for number, transaction_ids in enumerate(rounds) for i in transaction_ids}
    ids = set(round_of)
    marks: dict[str, dict[str, Any]] = collections.defaultdict(dict)
    for entry in await AuditEntry.filter(object_type="transaction", object_id__in=list(ids), action__in=[
            "withdrawal.signing", "withdrawal.awaiting_broadcast", "withdrawal.broadcast"]).values(
            "object_id", "action", "created_at"):
        marks[entry["object_id"]].setdefault(entry["action"].split(".", 1)[1], entry["created_at"])
    sessions = {s["id"]: s for s in await SigningSession.filter(
        purpose__in=[f"withdrawal:{i}" for i in ids]).values("id", "purpose", "completed_at")}
    for session in sessions.values():
        if session["completed_at"] is not None:
            marks[session["purpose"].split(":", 1)[1]]["session completed"] = session["completed_at"]
    for share in await SigningShare.filter(session_id__in=list(sessions)).values(
            "session_id", "participant", "created_at"):
        marks[sessions[share["session_id"]]["purpose"].split(":", 1)[1]][f"share {share['participant']}"] = \
            share["created_at"]
    started: dict[tuple[str, str], Any] = {}
    for command in await Command.filter(actor_name__in=["withdrawals.sign", "withdrawals.broadcast"]).values(
            "actor_name", "payload", "started_at"):
        key = (command["actor_name"], str(command["payload"].get("transaction_id")))
        if command["started_at"] is not None and key[1] in ids:
            # The sign step may run (and find its lane busy) more than once: the last start counts
            started[key] = max(started.get(key, command["started_at"]), command["started_at"])
    lanes: dict[tuple[int, str], list[str]] = collections.defaultdict(list)
    for row in await Transaction.filter(id__in=list(ids)).values("id", "from_address"):
        lanes[(round_of[str(row["id"])], row["from_address"])].append(str(row["id"]))
    spans: dict[str, list[float]] = collections.defaultdict(list)
    for members in lanes.values():
        members = sorted((m for m in members if "signing" in marks[m]), key=lambda m: marks[m]["signing"])
        for current, following in zip(members, members[1:]):
            times = dict(marks[current])
            if ("withdrawals.broadcast", current) in started:
                times["broadcast started"] = started[("withdrawals.broadcast", current)]
            if ("withdrawals.sign", following) in started:
                times["next sign started"] = started[("withdrawals.sign", following)]
            times["next signing"] = marks[following]["signing"]
            present = [m for m in CYCLE_MARKS if m in times]
            for before, after in zip(present, present[1:]):
                spans[f"{before} -> {after}"].append((times[after] - times[before]).total_seconds())
            spans["cycle"].append((times["next signing"] - times["signing"]).total_seconds())
    order = {f"{a} -> {b}": i for i, (a, b) in enumerate(
        (a, b) for i, a in enumerate(CYCLE_MARKS) for b in CYCLE_MARKS[i + 1:])}
    return {step: (statistics.median(values), percentile(values, 0.99), len(values))
            for step, values in sorted(spans.items(), key=lambda kv: order.get(kv[0], -1))}


async def run(args: argparse.Namespace) -> None:
    from _support import drop_database, flush_namespace, recreate_database

    from core.settings import Settings, configure, get_settings
    from custody.wiring import close_database, migrate, open_database, setup_broker

    env = get_settings()
    if not (env.database_url and env.redis_url):
        raise SystemExit("bench/withdrawals.py needs DATABASE_URL and REDIS_URL")
    database_url = await recreate_database(env.database_url, BENCH_DATABASE)
    database_url += ("&" if "?" in database_url else "?") + f"maxsize={args.pool}"  # a socket URL has ?host=
    namespace = f"custody-bench-withdrawals-{os.getpid()}"
    data_dir = Path(tempfile.mkdtemp(prefix="custody-bench-"))
    # Every vault generates a key set per scheme at once: allow them all (the default limit is 10).
    settings = configure(Settings(database_url=database_url, redis_url=env.redis_url, environment="test",
                                  base_url="http://bench", data_dir=data_dir,
                                  max_key_generations_in_progress=max(10, 4 * args.vaults)))
    await migrate(settings)
    await open_database(settings)
    broker = setup_broker(settings, worker=False, namespace=namespace)
    try:
        api = await accepted_per_second(settings, args.requests, args.concurrency, args.wallets, args.rounds)
        print(f"POST /transaction: {args.requests} withdrawals, {args.concurrency} in flight over {args.wallets} "
              f"wallets, one API process, database pool {api['pool']}, event loop {args.loop}; "
              f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print(f"  accepted: {api['api_rate']:.0f}/s, latency p50 {api['api_p50'] * 1000:.1f} ms, "
              f"p99 {api['api_p99'] * 1000:.1f} ms; CPU of the API process {api['api_cpu_ms']:.2f} ms per request")
        print(f"  raw asyncpg, the same rows (same pool, same concurrency): {api['raw_rate']:.0f} transactions/s, "
              f"p50 {api['raw_p50'] * 1000:.1f} ms, p99 {api['raw_p99'] * 1000:.1f} ms; CPU of this process "
              f"{api['raw_cpu_ms']:.2f} ms per transaction")
        api_cpu, raw_cpu = api["api_machine"], api["raw_machine"]
        print(f"  the machine's CPU ({os.cpu_count()} cores; read it on a quiet machine): per request accepted "
              f"{api_cpu['machine']:.2f} ms with {api['api_busy']:.2f} cores busy (the load generator "
              f"{api_cpu['this process']:.2f}, postgres {api_cpu['postgres']:.2f}, redis-server "
              f"{api_cpu['redis-server']:.2f}); per raw transaction {raw_cpu['machine']:.2f} ms with "
              f"{api['raw_busy']:.2f} cores busy (this process {raw_cpu['this process']:.2f}, postgres "
              f"{raw_cpu['postgres']:.2f}, redis-server {raw_cpu['redis-server']:.2f})")
        print(f"  {args.rounds} rounds each, taking turns (API, raw, API, raw, ...) (accepted/s, raw/s: ratio): "
              + "; ".join(f"{api_round:.0f}, {raw_round:.0f}: {api_round / raw_round:.3f}"
                          for api_round, raw_round in api["rounds"]))
        print(f"  ratio accepted/s : raw/s = {api['api_rate'] / api['raw_rate']:.3f} "
              f"(1 : {api['raw_rate'] / api['api_rate']:.1f})")
        if not args.no_e2e:
            # A namespace of its own: nothing of the first part (its queued checks) runs here
            e2e = await create_to_finished(settings, f"{namespace}-e2e", args.withdrawals, args.vaults, args.workers,
                                           args.workspaces, args.e2e_rounds)
            print(f"create -> finished on the devnet with instant blocks: {args.e2e_rounds} round(s) of "
                  f"{args.withdrawals} withdrawals over {args.vaults} vaults in {args.workspaces} workspace(s), "
                  f"{args.workers} general worker process(es), signer processes 1 and 2; each round followed by "
                  f"{args.withdrawals} signatures alone through the same processes")
            print(f"  finished: {e2e['rate']:.1f}/s, latency p50 {e2e['p50'] * 1000:.0f} ms, "
                  f"p99 {e2e['p99'] * 1000:.0f} ms (each round's {args.withdrawals} created within "
                  f"{e2e['created_in']:.1f} s)")
            print("  where the time went (p50 / p99 per step, from the audit entries): " + "; ".join(
                f"{step} {p50 * 1000:.0f} / {p99 * 1000:.0f} ms" for step, (p50, p99) in e2e["stages"].items()))
            print(f"  CPU per withdrawal, create -> finished: the general worker process(es) "
                  f"{e2e['cpu_general'] * 1000:.1f} ms, the signer processes {e2e['cpu_signers'] * 1000:.1f} ms")
            # Every round's statements, per withdrawal of all rounds
            statements, finished = e2e["statements"], e2e["withdrawals"]
            print(f"  SQL statements per withdrawal in the general worker process(es), create -> finished (asyncpg, "
                  f"BEGIN/COMMIT included, the audit chain's too; the tracker runs in this process, not counted): {sum(statements.values()) / finished:.1f}")
            for query, count in statements.most_common(args.statements):
                print(f"    {count / finished:5.2f}  {query}")
            signer_statements = e2e["signer_statements"]
            print(f"  SQL statements per withdrawal in the signer processes: "
                  f"{sum(signer_statements.values()) / finished:.1f} (per signature alone: "
                  f"{e2e['signing_statements'][1]:.1f}, and the general worker process(es) "
                  f"{e2e['signing_statements'][0]:.1f})")
            for query, count in signer_statements.most_common(12):
                print(f"    {count / finished:5.2f}  {query}")
            print(f"  SQL statements per withdrawal of the tracker (withdrawals.track, in this process, every 5 ms; "
                  f"BEGIN/COMMIT included): {e2e['tracker_statements']:.1f}")
            for query, count in e2e["tracker_top"]:
                print(f"    {count / finished:5.2f}  {query}")
            print(f"  pipeline command messages sent per withdrawal (withdrawals.*, enqueued after commit or by the "
                  f"relay): {e2e['messages']:.2f}")
            print("  the lane cycle (a withdrawal's signing to the next one's of its address; p50 / p99, count): "
                  + "; ".join(f"{step} {p50 * 1000:.0f} / {p99 * 1000:.0f} ms ({n})"
                              for step, (p50, p99, n) in e2e["cycles"].items()))
            print(f"  threshold signatures alone through the same processes: {e2e['signing_rate']:.1f}/s")
            cores = os.cpu_count() or 1
            cycle = e2e["cycles"].get("cycle", (float("nan"),))[0]
            print(f"  the limits of this run on this machine ({cores} cores): the lanes, {args.vaults} / cycle p50 "
                  f"{cycle:.3f} s = {args.vaults / cycle:.1f} finished/s; the machine's CPU (every process on it, "
                  f"PostgreSQL's, Redis's and this one's included: read it on a quiet machine), "
                  f"{e2e['machine_per_withdrawal'] * 1000:.1f} ms per withdrawal with {e2e['machine_busy']:.2f} "
                  f"cores busy = at most {cores / e2e['machine_per_withdrawal']:.1f} finished/s with every core "
                  f"busy, against {e2e['machine_per_signature'] * 1000:.1f} ms per signature alone "
                  f"({e2e['machine_busy_signing']:.2f} cores busy); of a withdrawal's, the servers on this machine "
                  "(every database's work): " + ", ".join(f"{name} {seconds * 1000:.1f} ms"
                                                          for name, seconds in e2e["servers"].items())
                  + f"; this process (the creations, the chain and the tracker) {e2e['this_process'] * 1000:.1f} ms")
            print("  the machine's CPU per signature alone, by process: " + ", ".join(
                f"{name} {seconds * 1000:.1f} ms" for name, seconds in e2e["signing_parts"].items()))
            print("  the rounds (finished/s, signatures/s: ratio): " + "; ".join(
                f"{finished:.1f}, {signed:.1f}: {finished / signed:.3f}" for finished, signed in e2e["rounds"]))
            print(f"  ratio finished/s : signatures/s = {e2e['rate'] / e2e['signing_rate']:.3f} over all rounds "
                  "-> target >= 0.5")
            # What the ratio can reach on this machine, CPU-bound: a withdrawal costs at least its
            # creation (part 1's POST /transaction, the same request and load generator) and its
            # signature; everything else it costs is the pipeline's own.
            creation, signature = api_cpu["machine"] / 1000, e2e["machine_per_signature"]
            rest = e2e["machine_per_withdrawal"] - creation - signature
            print(f"  the bound of that ratio on this machine: a withdrawal costs at least its creation "
                  f"({creation * 1000:.1f} ms of the machine per POST /transaction above) and its signature "
                  f"({signature * 1000:.1f} ms alone), so at most {signature / (creation + signature):.2f} even if "
                  f"its checks, broadcast, confirmations and their changes cost nothing; they cost "
                  f"{rest * 1000:.1f} ms here, and reaching 0.5 leaves them "
                  f"{max(signature - creation, 0) * 1000:.1f} ms")
    finally:
        broker.close()
        flush_namespace(settings.redis_url, namespace)  # and "-e2e"
        await close_database()
        await drop_database(env.database_url, BENCH_DATABASE)
        shutil.rmtree(data_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000, help="POST /transaction requests measured")
    parser.add_argument("--rounds", type=int, default=4, help="rounds the API and raw asyncpg each take, in turns")
    parser.add_argument("--concurrency", type=int, default=32, help="requests (and raw transactions) in flight")
    parser.add_argument("--wallets", type=int, default=16, help="source wallets the requests spread over")
    parser.add_argument("--pool", type=int, default=10, help="database pool size of this process")
    parser.add_argument("--withdrawals", type=int, default=200, help="withdrawals carried to finished")
    parser.add_argument("--e2e-rounds", type=int, default=2, help="rounds the withdrawals and the signatures "
                        "alone each take, in turns")
    parser.add_argument("--vaults", type=int, default=16, help="vaults (signing lanes) they spread over")
    parser.add_argument("--workers", type=int, default=3, help="general worker processes (signers: one each)")
    parser.add_argument("--workspaces", type=int, default=1, help="workspaces the vaults belong to (the change "
                        "log is per workspace)")
    parser.add_argument("--no-e2e", action="store_true", help="only the API figures")
    parser.add_argument("--statements", type=int, default=25,
                        help="the general worker's most frequent SQL statements listed")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop",
                        help="this process's event loop (API and raw asyncpg alike): uvloop is what `custody web` "
                        "runs (Sanic installs it when it is there); asyncio's own loop writes sockets in Python")
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.WARNING)
    if args.loop == "uvloop":
        import uvloop

        uvloop.run(run(args))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main()
