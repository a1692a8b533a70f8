"""Benchmark: the change log and the balance snapshot cost what the page costs, not the table.

Fills one workspace of its own database (``custody_bench`` on the DATABASE_URL server, dropped
and migrated afresh) with 1,000,000 transactions, in steps (10k, 100k, 1M) written with
``INSERT ... SELECT generate_series`` (no round trip per row). At each size it times, with the
very domain functions the API calls:

* a change-log page of 1000 (``domain.transactions.changes``, plus serializing the items), at the
  start, the middle and the end of the log;
* the balance snapshot (``domain.balances.snapshot``) of the workspace's wallets;

and prints the plans (EXPLAIN ANALYZE) of both queries at the largest size: the page is an index
range scan on ``(workspace_id, seq)`` that stops after limit + 1 rows; the snapshot reads the
wallets and the workspace's log row only, never the transactions.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test .venv/bin/python bench/changelog.py
    (options: --sizes 10000,100000,1000000 --wallets 30 --database custody_bench)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import asyncpg  # noqa: E402
from _support import recreate_database  # noqa: E402

from core.settings import Settings, configure  # noqa: E402

CURRENCIES = ("DETH_TEST", "DUSD_TEST", "DBTC_TEST")
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
    await conn.execute("INSERT INTO transaction_change_logs (id, workspace_id, position, min_cursor, created_at, "
                       "updated_at) VALUES ($1, $2, 0, 0, now(), now())", uuid.uuid4(), workspace)
    return workspace, wallet_ids


#: The query behind domain.transactions.changes (limit + 1 rows to tell has_more).
PAGE_SQL = "SELECT * FROM transactions WHERE workspace_id = $1 AND seq > $2 ORDER BY seq LIMIT 1001"

_FILL = """
INSERT INTO transactions (id, workspace_id, vault_id, wallet_id, direction, status, currency_id, network, amount,
    fee, fee_limit, fee_currency_id, from_address, to_address, from_side, to_side, tx_hash, block_height,
    block_time, balance_version, seq, chain_ref, created_at, updated_at)
SELECT gen_random_uuid(), $1, w.vault_id, w.id, 'deposit', 'finished', w.currency_id, a.network,
    1000 + g, 21, 21, w.currency_id, 'external-sender', a.address,
    '{"address": "external-sender", "balance": null, "external": true}'::jsonb,
    jsonb_build_object('address', a.address, 'external', false, 'balance_version', g,
                       'balance', jsonb_build_object('total_atomic', (1000 + g)::text)),
    md5(g::text), g, now(), g, g, 'bench:' || g, now(), now()
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
    await conn.execute("UPDATE transaction_change_logs SET position = $2 WHERE workspace_id = $1", workspace, end)
    await conn.execute(
        "UPDATE wallets w SET total = w.total + s.amount, block_height = s.height FROM ("
        "  SELECT wallet_id, sum(amount) AS amount, max(block_height) AS height FROM transactions"
        "  WHERE workspace_id = $1 AND seq BETWEEN $2 AND $3 GROUP BY wallet_id) s WHERE s.wallet_id = w.id",
        workspace, start, end)
    await conn.execute("ANALYZE transactions; ANALYZE wallets; ANALYZE transaction_change_logs")


async def _timed(fn, repeat: int) -> float:
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
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    server = os.environ.get("DATABASE_URL")
    if not server:
        sys.exit("set DATABASE_URL to a PostgreSQL server (the benchmark creates its own database there)")
    sizes = sorted(int(s) for s in args.sizes.split(","))

    url = await recreate_database(server, args.database)
    settings = configure(Settings(database_url=url, environment="bench"))
    from tortoise import connections

    from custody.wiring import close_database, migrate, open_database
    from domain import balances, transactions

    await migrate(settings)
    conn = await asyncpg.connect(url)
    workspace, _ = await _seed(conn, args.wallets)
    await open_database(settings)
    print(f"database {args.database}: one workspace, {args.wallets} wallets; page = 1000 transactions\n")
    print("page SQL = the change-log query alone (start / middle / end of the log); page API = the domain call\n"
          "(query + ORM rows) plus serializing the 1000 items, as GET /transactions/changes does; snapshot =\n"
          "the balance snapshot with per-wallet rows (GET /asset/balances/currencies?wallets=true). Medians, ms.\n")
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
                assert snap.cursor == size

            api_ms = await _timed(page_api, args.repeat)
            snapshot_ms = await _timed(snapshot, args.repeat)
            print(f"{size:>12,} {fill_seconds:>7.1f} {sql_ms['start']:>15.2f} {sql_ms['middle']:>7.2f} "
                  f"{sql_ms['end']:>7.2f} {api_ms:>9.1f} {snapshot_ms:>9.2f}", flush=True)

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


if __name__ == "__main__":
    asyncio.run(main())
