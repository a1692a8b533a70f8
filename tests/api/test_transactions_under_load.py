"""POST /api/v1/transaction under load: no per-workspace lock, no deadlock, no gap for a reader.

200 withdrawals are created at once over three wallets of one workspace while the check stage
runs (a Transfer policy blocks the big ones) and a reader pages the change log through HTTP.
"""

from __future__ import annotations

import asyncio
import time

from tortoise import connections

from models.transactions import Transaction
from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.changelog import until_final
from tests.support.environment import TEST_DATABASE
from tests.support.policies import publish
from tests.support.wallets import Api, vault_with_key
from tests.support.withdrawals import ELSEWHERE_EVM, ETH, allow_one_time_addresses, funded_wallet
from tests.support.worker import wait_for

REQUESTS = 200
WALLETS = 3
#: The policy blocks withdrawals of this many atomic units or more (every fifth request).
BIG = 10**15


async def _deadlocks() -> int:
    """Deadlocks PostgreSQL detected in the test database so far (its statistics, read fresh)."""
    conn = connections.get("default")
    await conn.execute_query("SELECT pg_stat_clear_snapshot()")
    rows = await conn.execute_query_dict("SELECT deadlocks FROM pg_stat_database WHERE datname = $1", [TEST_DATABASE])
    return int(rows[0]["deadlocks"])


def _amount(index: int) -> int:
    return BIG + index if index % 5 == 0 else 1_000 + index


async def test_concurrent_withdrawals_never_deadlock_and_a_reader_sees_each_change_once_in_order(
        client, broker, worker):
    # Given a workspace with three funded wallets and a Transfer policy that blocks big withdrawals
    caller = await make_caller(role="ADMIN")
    ws = await Workspace.get(id=caller.workspace_id)
    await allow_one_time_addresses(ws.id)
    wallets = [await funded_wallet(await vault_with_key(ws, name=f"V{i}"), "DETH_TEST", 10 * ETH)
               for i in range(WALLETS)]
    await publish(ws.id, [{"id": "big", "name": "Big ones blocked", "action": "block",
                           "asset": {"currency_ids": ["DETH_TEST"]}, "amount": {"min": str(BIG)}}],
                  no_match_action="allow")
    api = Api(client, caller)
    await until_final()
    status, start = await api.get("/api/v1/asset/balances/currencies")
    assert status == 200
    deadlocks_before = await _deadlocks()
    reading = True
    seen: list[tuple[str, int, str]] = []

    async def reader() -> None:
        cursor = start["cursor"]
        while reading:
            status, page = await api.get("/api/v1/transactions/changes", since_cursor=cursor, limit=25)
            assert status == 200, page
            seen.extend((item["id"], item["seq"], item["status"]) for item in page["items"])
            cursor = page["next_cursor"]
            if not page["has_more"]:
                await asyncio.sleep(0.01)

    async def create(index: int) -> tuple[int, dict]:
        body = {"amount": str(_amount(index)), "source_wallet_id": str(wallets[index % WALLETS].id),
                "target_address": ELSEWHERE_EVM}
        return await api.post("/api/v1/transaction", body)

    async def checked() -> bool:
        """The check stage has decided every withdrawal (the pipeline may move approved ones on)."""
        return not await Transaction.filter(workspace_id=ws.id, direction="withdrawal",
                                            status__in=["pending", "checks"]).exists()

    async def caught_up() -> bool:
        """The reader has seen each withdrawal at least at the position it had when asked."""
        rows = await Transaction.filter(workspace_id=ws.id, direction="withdrawal")
        await until_final()
        for _ in range(200):
            latest = {tx_id: seq for tx_id, seq, _ in seen}
            if all(latest.get(str(t.id), -1) >= t.seq for t in rows):
                return True
            await asyncio.sleep(0.05)
        return False

    # When 200 POST /transaction run at once while the worker runs the check stage
    reading_task = asyncio.create_task(reader())
    answers = await asyncio.gather(*(create(i) for i in range(REQUESTS)))
    # Then every request was accepted: no 5xx, nothing refused
    assert sorted({status for status, _ in answers}) == [201], [b for s, b in answers if s != 201][:3]
    try:
        await wait_for(checked, timeout=900, interval=0.2)
        deadline = time.monotonic() + 300
        while not await caught_up():
            assert time.monotonic() < deadline, "the reader never caught up with the log"
    finally:
        reading = False
        await asyncio.wait_for(reading_task, timeout=60)

    # And PostgreSQL detected no deadlock (its statistics may lag a moment: read again until stable)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        assert await _deadlocks() == deadlocks_before
        await asyncio.sleep(0.5)
    # And the check stage ran: big ones declined (what they held released), the rest went on
    rows = await Transaction.filter(workspace_id=ws.id, direction="withdrawal")
    assert len(rows) == REQUESTS
    declined = {str(t.id) for t in rows if t.status == "declined"}
    assert declined == {str(t.id) for t in rows if int(t.amount) >= BIG}
    assert all(t.error_code == "POLICY_BLOCKED" for t in rows if str(t.id) in declined)
    # And each wallet's balance equals its movements (one statement: one state, while the pipeline
    # may still move approved withdrawals on): total untouched, held = what live withdrawals hold
    (rows_now,) = [await connections.get("default").execute_query_dict(
        "SELECT w.id, w.total, w.held, w.frozen, coalesce((SELECT sum(t.amount + t.fee_limit) FROM transactions t"
        " WHERE t.wallet_id = w.id AND t.holding), 0) AS holding FROM wallets w WHERE w.id = ANY($1::uuid[])",
        [[w.id for w in wallets]])]
    assert len(rows_now) == WALLETS
    for row in rows_now:
        assert (int(row["total"]), int(row["frozen"])) == (10 * ETH, 0)
        assert int(row["held"]) == int(row["holding"])
    # And the reader saw every change once, in cursor order, ending with each transaction's state
    positions = [seq for _, seq, _ in seen]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    assert {tx_id for tx_id, _, _ in seen} == {str(t.id) for t in rows}
