"""Benchmark: the change log and the balance snapshot cost what the page costs, not the table.

Fills one workspace of its own database (``custody_bench`` on the DATABASE_URL server, dropped
and migrated afresh, and dropped at the end unless ``--keep``) with 1,000,000 transactions, in steps (10k, 100k, 1M) written with
``INSERT ... SELECT generate_series`` (no round trip per row). At each size it times, with the
very domain functions the API calls:

* a change-log page of 1000 (``domain.transactions.changes``, plus serializing the items), at the
  start, the middle and the end of the log;
* the balance snapshot (``domain.balances.snapshot``) of the workspace's wallets;

and prints the plans (EXPLAIN ANALYZE) of both queries at the largest size: the page is an index
range scan on ``(workspace_id, seq)`` that stops after limit + 1 rows; the snapshot reads the
wallets and the workspace's log row only, never the transactions.

Then the writers' figure: POST /transaction accepted/s through the API (one process, as
bench/withdrawals.py runs it) with every wallet in ONE workspace, against the same load and the
same number of wallets spread over FOUR workspaces, alternated over ``--writers-rounds`` rounds.
With positions in commit order without a lock (core/commit_order.py) a workspace has no
bottleneck of its own: the ratio one : four should be about 1 (target >= 0.8).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/changelog.py
    (options: --sizes 10000,100000,1000000 --wallets 30 --database custody_bench --keep --no-pages
     --no-writers --writers-requests 1000 --writers-concurrency 32 --writers-wallets 16)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Awaitable, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402
from _support import drop_database, flush_namespace, recreate_database, scratch_data_dir  # noqa: E402

from core.commit_order import HORIZON_SQL  # noqa: E402
from core.settings import Settings, configure  # noqa: E402

CURRENCIES = ("DETH_TEST", "DUSD_TEST", "DBTC_TEST")
#: Where the writers' withdrawals go (a one-time address).
TARGET = "0x" + "ab" * 20
NETWORKS = {"DETH_TEST": "devnet-evm-testnet", "DUSD_TEST": "devnet-evm-testnet", "DBTC_TEST": "devnet-utxo-testnet"}


async def _seed(conn: asyncpg.Connection, wallets: int) -> tuple[uuid.UUID, list[uuid.UUID]]:
    """A company, a workspace, vaults with wallets of three currencies; returns their ids."""
    company, workspace = uuid.uuid4(), uuid.uuid4()
    await conn.execute("INSERT INTO companies (id, name, email, created_at, updated_at) "
                       "VALUES ($1, 'Bench', 'bench@example.test', now(), now())", company)
    await conn.execute("INSERT INTO workspaces (id, company_id, name, network_type, created_at, updated_at) "
                       "VALUES ($1, $2, 'Bench', 'testnet', now(), now())", workspace, company)
    wallet_ids = []
    for index in range(wallets):
        if index % len(CURRENCIES) == 0:
            vault = uuid.uuid4()
            await conn.execute("INSERT INTO vaults (id, workspace_id, name, is_frozen, created_at, updated_at) "
                               "VALUES ($1, $2, $3, false, now(), now())", vault, workspace, f"Vault {index}")
            addresses: dict[str, uuid.UUID] = {}
        currency = CURRENCIES[index % len(CURRENCIES)]
        network = NETWORKS[currency]
        if network not in addresses:
            addresses[network] = uuid.uuid4()
            await conn.execute(
                "INSERT INTO wallet_addresses (id, workspace_id, vault_id, network, address, public_key, "
                "balance_version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, now(), now())",
                addresses[network], workspace, vault, network, f"bench-{uuid.uuid4().hex}", os.urandom(32))
        wallet = uuid.uuid4()
        wallet_ids.append(wallet)
        await conn.execute(
            "INSERT INTO wallets (id, workspace_id, vault_id, address_id, currency_id, status, total, frozen, held, "
            "block_height, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, 'active', 0, 0, 0, 0, now(), now())",
            wallet, workspace, vault, addresses[network], currency)
    return workspace, wallet_ids


#: The query behind domain.transactions.changes (limit + 1 rows to tell has_more).
PAGE_SQL = ("SELECT * FROM transactions WHERE workspace_id = $1 AND seq > $2"
            f" AND seq < {HORIZON_SQL} ORDER BY seq LIMIT 1001")

_FILL = """
INSERT INTO transactions (id, workspace_id, vault_id, wallet_id, direction, status, currency_id, network, amount,
    fee, fee_limit, fee_currency_id, from_address, to_address, from_side, to_side, tx_hash, block_height,
    block_time, balance_version, seq, chain_ref, holding, awaiting_gas, created_at, updated_at)
SELECT gen_random_uuid(), $1, w.vault_id, w.id, 'deposit', 'finished', w.currency_id, a.network,
    1000 + g, 21, 21, w.currency_id, 'external-sender', a.address,
    '{"address": "external-sender", "balance": null, "external": true}'::jsonb,
    jsonb_build_object('address', a.address, 'external', false, 'balance_version', g,
                       'balance', jsonb_build_object('total_atomic', (1000 + g)::text)),
    md5(g::text), g, now(), g, g, 'bench:' || g, false, false, now(), now()
FROM generate_series($2::bigint, $3::bigint) AS g
CROSS JOIN (SELECT array_agg(id ORDER BY id) AS ids FROM wallets WHERE workspace_id = $1) AS pool
JOIN wallets w ON w.id = pool.ids[(g % $4) + 1]
JOIN wallet_addresses a ON a.id = w.address_id
"""


async def _fill(conn: asyncpg.Connection, workspace: uuid.UUID, wallets: int, start: int, end: int) -> None:
    """Transactions start..end of the workspace, positions = their number; balances follow."""
    for low in range(start, end + 1, 200_000):
        high = min(low + 199_999, end)
        await conn.execute(_FILL, workspace, low, high, wallets)
    await conn.execute(
        "UPDATE wallets w SET total = w.total + s.amount, block_height = s.height FROM ("
        "  SELECT wallet_id, sum(amount) AS amount, max(block_height) AS height FROM transactions"
        "  WHERE workspace_id = $1 AND seq BETWEEN $2 AND $3 GROUP BY wallet_id) s WHERE s.wallet_id = w.id",
        workspace, start, end)
    await conn.execute("ANALYZE transactions; ANALYZE wallets")


async def _timed(fn: Callable[[], Awaitable[Any]], repeat: int) -> float:
    """Median wall time of ``fn()`` in milliseconds (after one warm-up call)."""
    await fn()
    samples = []
    for _ in range(repeat):
        began = time.perf_counter()
        await fn()
        samples.append((time.perf_counter() - began) * 1000)
    return statistics.median(samples)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--wallets", type=int, default=30)
    parser.add_argument("--database", default="custody_bench")
    parser.add_argument("--keep", action="store_true", help="leave the database on the server (to look at it)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--no-pages", action="store_true", help="only the writers' figure")
    parser.add_argument("--no-writers", action="store_true", help="only the page and snapshot figures")
    parser.add_argument("--writers-requests", type=int, default=1000)
    parser.add_argument("--writers-concurrency", type=int, default=32)
    parser.add_argument("--writers-wallets", type=int, default=16)
    parser.add_argument("--writers-rounds", type=int, default=2)
    args = parser.parse_args()
    server = os.environ.get("DATABASE_URL")
    if not server:
        sys.exit("set DATABASE_URL to a PostgreSQL server (the benchmark creates its own database there)")
    sizes = sorted(int(s) for s in args.sizes.split(","))

    url = await recreate_database(server, args.database)
    redis_url = os.environ.get("REDIS_URL")
    if not args.no_writers and not redis_url:
        sys.exit("the writers' figure needs REDIS_URL too (or pass --no-writers)")
    data_dir = scratch_data_dir()
    settings = configure(Settings(database_url=url, redis_url=redis_url, environment="test", base_url="http://bench",
                                  data_dir=data_dir))
    from tortoise import connections

    from custody.wiring import close_database, migrate, open_database, setup_broker
    from domain import balances, transactions

    await migrate(settings)
    conn = await asyncpg.connect(url)
    workspace, _ = await _seed(conn, args.wallets)
    await open_database(settings)
    if args.no_pages:
        sizes = []
    if sizes:
        print(f"database {args.database}: one workspace, {args.wallets} wallets; page = 1000 transactions\n")
        print("page SQL = the change-log query alone (start / middle / end of the log); page API = the domain\n"
              "call (query + ORM rows) plus serializing the 1000 items, as GET /transactions/changes does;\n"
              "snapshot = the balance snapshot with per-wallet rows (GET /asset/balances/currencies?wallets=true).\n"
              "Medians, ms.\n")
        print(f"{'transactions':>12} {'fill s':>7} {'page SQL start':>15} {'middle':>7} {'end':>7} "
              f"{'page API':>9} {'snapshot':>9}")
    filled = 0
    try:
        for size in sizes:
            began = time.perf_counter()
            await _fill(conn, workspace, args.wallets, filled + 1, size)
            fill_seconds = time.perf_counter() - began
            filled = size
            sql_ms = {}
            for label, since in (("start", 0), ("middle", size // 2), ("end", size - 1000)):
                async def page_sql(since: int = since) -> None:
                    rows = await conn.fetch(PAGE_SQL, workspace, since)
                    assert len(rows) == 1001 or since == size - 1000
                sql_ms[label] = await _timed(page_sql, args.repeat)

            async def page_api() -> None:
                result = await transactions.changes(principal=None, workspace_id=workspace, since_cursor=size // 2,
                                                    limit=1000)
                assert len([transactions.to_resource(tx) for tx in result.items]) == 1000

            async def snapshot() -> None:
                snap = await balances.snapshot(principal=None, workspace_id=workspace, include_wallets=True)
                assert snap.cursor >= size

            api_ms = await _timed(page_api, args.repeat)
            snapshot_ms = await _timed(snapshot, args.repeat)
            print(f"{size:>12,} {fill_seconds:>7.1f} {sql_ms['start']:>15.2f} {sql_ms['middle']:>7.2f} "
                  f"{sql_ms['end']:>7.2f} {api_ms:>9.1f} {snapshot_ms:>9.2f}", flush=True)

        if not args.no_writers:
            namespace = f"custody-bench-changelog-{os.getpid()}"
            broker = setup_broker(settings, worker=False, namespace=namespace)
            try:
                await writers(settings, requests=args.writers_requests, concurrency=args.writers_concurrency,
                              wallets=args.writers_wallets, rounds=args.writers_rounds)
            finally:
                broker.close()
                flush_namespace(redis_url, namespace)
        if not sizes:
            return
        db = connections.get("default")
        print("\nplan of a change-log page (since = middle, limit 1000 + 1):")
        _, rows = await db.execute_query("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + PAGE_SQL,
                                         [workspace, filled // 2])
        for row in rows:
            print("   ", row["QUERY PLAN"])
        print("\nplan of the balance snapshot (per currency, with the cursor):")
        _, rows = await db.execute_query("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + balances._SNAPSHOT_TOTALS,
                                         [workspace])
        for row in rows:
            print("   ", row["QUERY PLAN"])
    finally:
        await close_database()
        await conn.close()
        if not args.keep:
            await drop_database(server, args.database)


# --------------------------------------------------------------------------------------------
# Writers: one workspace against the same load spread over four
# --------------------------------------------------------------------------------------------


def _load_main(pipe: Connection, url: str, jobs: list[tuple[dict[str, str], str]], requests: int, concurrency: int) -> None:
    """The load generator (a child process, so its CPU is not the API's): POSTs over real HTTP,
    request ``i`` from ``jobs[i % len(jobs)]`` (its workspace's token, its source wallet)."""
    import aiohttp

    async def go() -> tuple[float, dict[int, int]]:
        statuses: dict[int, int] = {}
        limit = asyncio.Semaphore(concurrency)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:
            async def post(index: int, record: bool) -> None:
                headers, source = jobs[index % len(jobs)]
                body = {"amount": str(1000 + abs(index)), "source_wallet_id": source, "target_address": TARGET}
                async with limit, session.post(url, json=body, headers=headers) as response:
                    await response.read()
                    if record:
                        statuses[response.status] = statuses.get(response.status, 0) + 1

            await asyncio.gather(*(post(-1 - i, False) for i in range(min(100, requests))))  # warm up
            start = time.perf_counter()
            await asyncio.gather(*(post(i, True) for i in range(requests)))
            return time.perf_counter() - start, statuses

    pipe.send(asyncio.run(go()))


async def _layout(workspaces: int, wallets: int) -> list[tuple[dict[str, str], str]]:
    """``workspaces`` workspaces with ``wallets`` funded DETH wallets in all: (headers, wallet) each."""
    import withdrawals as bench_withdrawals

    from core.unit_of_work import unit_of_work
    from domain import balances, vaults
    from domain import wallets as wallet_service

    jobs = []
    for index in range(workspaces):
        workspace = await bench_withdrawals.new_workspace()
        _, token, _ = await bench_withdrawals.api_user(workspace.id)
        headers = {"Authorization": f"Bearer {token}", "X-Workspace-Id": str(workspace.id)}
        for number in range(wallets // workspaces):
            async with unit_of_work():
                view = await vaults.create_vault(principal=None, workspace_id=workspace.id,
                                                 name=f"Bench {index}-{number}")
                await bench_withdrawals.mark_key_sets_ready(view.vault.id)
            async with unit_of_work():
                (opened,) = await wallet_service.create_wallet(principal=None, workspace=workspace,
                                                               vault_id=view.vault.id, currency_id="DETH_TEST")
                locked = await balances.lock_wallets([opened.wallet.id])
                await balances.apply_change(wallet=locked[opened.wallet.id], total=10**30)
            jobs.append((headers, str(opened.wallet.id)))
    return jobs


async def writers(settings: Settings, *, requests: int, concurrency: int, wallets: int, rounds: int) -> None:
    """POST /transaction accepted/s with every wallet in one workspace, then spread over four."""
    import multiprocessing

    from tests.support.serving import served_api

    layouts = {1: await _layout(1, wallets), 4: await _layout(4, wallets)}
    async with served_api(settings, name="custody_bench_changelog") as port:
        url = f"http://127.0.0.1:{port}/api/v1/transaction"
        context = multiprocessing.get_context("spawn")
        rates: dict[int, list[float]] = {1: [], 4: []}
        for _ in range(rounds):
            for count, jobs in layouts.items():
                parent, child = context.Pipe()
                load = context.Process(target=_load_main, args=(child, url, jobs, requests, concurrency), daemon=True)
                load.start()
                while not parent.poll():
                    await asyncio.sleep(0.05)
                elapsed, statuses = parent.recv()
                load.join(timeout=10)
                if statuses.get(201, 0) != requests:
                    raise SystemExit(f"POST /transaction answered {statuses}")
                rates[count].append(requests / elapsed)
    one, four = statistics.median(rates[1]), statistics.median(rates[4])
    print(f"\nwriters: POST /transaction, {requests} requests x {rounds} rounds, {concurrency} in flight over "
          f"{wallets} wallets, one API process (medians)")
    print(f"  one workspace:    {one:.0f} accepted/s  {[round(r) for r in rates[1]]}")
    print(f"  four workspaces:  {four:.0f} accepted/s  {[round(r) for r in rates[4]]}")
    print(f"  ratio one : four = {one / four:.2f} (target >= 0.8: no per-workspace bottleneck)")


if __name__ == "__main__":
    asyncio.run(main())
