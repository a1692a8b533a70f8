"""Reading the change log in tests: wait for the horizon, then page it.

The change log serves only final positions (below the horizon, core/commit_order.py). The horizon
is the PostgreSQL server's: a transaction open in another database of the same server (another
test run) holds it back a moment. Tests therefore wait for it with a deadline, never by sleeping.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from tortoise import connections

from domain import transactions
from models.transactions import Transaction

#: How long a test waits for the horizon to pass what was written before it asked: generous, as
#: another test run migrating its database on the same server holds the horizon while it does.
DEADLINE_SECONDS = 300.0


async def until_final(deadline: float = DEADLINE_SECONDS) -> None:
    """Wait until every database transaction that had begun by now has ended: the changes
    committed before the call are then below the horizon, so the log serves them."""
    conn = connections.get("default")
    rows = await conn.execute_query_dict("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS x")
    target = int(rows[0]["x"])
    give_up = time.monotonic() + deadline
    while True:
        rows = await conn.execute_query_dict("SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS x")
        if int(rows[0]["x"]) >= target:
            return
        if time.monotonic() > give_up:
            raise AssertionError(f"the horizon did not pass transaction {target} within {deadline:g} s: "
                                 "a transaction stays open on the PostgreSQL server")
        await asyncio.sleep(0.01)


async def all_changes(workspace_id: uuid.UUID, since: int = 0, limit: int = 1000) -> list[Transaction]:
    """Every item of the workspace's log after ``since`` once what was written before is final."""
    await until_final()
    items: list[Transaction] = []
    while True:
        page = await transactions.changes(principal=None, workspace_id=workspace_id, since_cursor=since, limit=limit)
        items.extend(page.items)
        since = page.next_cursor
        if not page.has_more:
            return items
