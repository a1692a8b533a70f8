"""Positions in commit order without a lock: gap-free for a reader below the horizon."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from core.commit_order import HORIZON_SQL, NEXT_POSITION_SQL, ordinal_of, transaction_id_of
from core.settings import Settings


@pytest.fixture
async def positions_table(settings: Settings, database: None) -> AsyncIterator[str]:
    conn = await asyncpg.connect(settings.database_url)
    try:
        await conn.execute("DROP TABLE IF EXISTS commit_order_probe")
        await conn.execute("CREATE TABLE commit_order_probe (label text, position bigint)")
        yield settings.database_url
        await conn.execute("DROP TABLE IF EXISTS commit_order_probe")
    finally:
        await conn.close()


async def _read_final(conn: asyncpg.Connection, after: int) -> list[tuple[str, int]]:
    rows = await conn.fetch(
        f"SELECT label, position FROM commit_order_probe WHERE position > $1 AND position < {HORIZON_SQL} "
        "ORDER BY position", after)
    return [(r["label"], r["position"]) for r in rows]


async def _read_final_once(conn: asyncpg.Connection, after: int, count: int) -> list[tuple[str, int]]:
    """The final positions after ``after`` once there are ``count``: the horizon is cluster-wide, so a
    transaction of another database on the same server (another test run) may hold it back a moment."""
    for _ in range(1000):
        seen = await _read_final(conn, after)
        if len(seen) >= count:
            return seen
        await asyncio.sleep(0.01)
    return await _read_final(conn, after)


async def test_positions_grow_within_a_transaction_and_start_again_in_the_next(positions_table: str) -> None:
    conn = await asyncpg.connect(positions_table)
    try:
        # When one transaction takes three positions, and the next one two
        async with conn.transaction():
            first = [await conn.fetchval(f"SELECT {NEXT_POSITION_SQL}") for _ in range(3)]
        async with conn.transaction():
            second = [await conn.fetchval(f"SELECT {NEXT_POSITION_SQL}") for _ in range(2)]
    finally:
        await conn.close()
    # Then each transaction numbers its positions 1, 2, ... under its own transaction id
    assert [ordinal_of(p) for p in first] == [1, 2, 3]
    assert [ordinal_of(p) for p in second] == [1, 2]
    assert len({transaction_id_of(p) for p in first}) == 1
    assert transaction_id_of(second[0]) > transaction_id_of(first[0])
    assert first == sorted(first) and second[0] > first[-1]


async def test_a_multi_row_statement_gives_every_row_its_own_position(positions_table: str) -> None:
    conn = await asyncpg.connect(positions_table)
    try:
        async with conn.transaction():
            await conn.execute(
                f"INSERT INTO commit_order_probe SELECT 'r' || n, {NEXT_POSITION_SQL} FROM generate_series(1, 50) n")
        positions = [r["position"] for r in await conn.fetch("SELECT position FROM commit_order_probe")]
    finally:
        await conn.close()
    assert len(set(positions)) == 50
    assert sorted(ordinal_of(p) for p in positions) == list(range(1, 51))


async def test_a_reader_never_pages_past_a_position_that_commits_later(positions_table: str) -> None:
    slow = await asyncpg.connect(positions_table)
    fast = await asyncpg.connect(positions_table)
    reader = await asyncpg.connect(positions_table)
    try:
        # Given a slow writer that took its position first, and a fast writer that commits before it
        slow_tx = slow.transaction()
        await slow_tx.start()
        await slow.execute(f"INSERT INTO commit_order_probe VALUES ('slow', {NEXT_POSITION_SQL})")
        async with fast.transaction():
            await fast.execute(f"INSERT INTO commit_order_probe VALUES ('fast', {NEXT_POSITION_SQL})")
        # When a reader pages while the slow writer is still open
        seen = await _read_final(reader, 0)
        # Then it is served nothing at or above the slow writer's position, not even the committed fast one
        assert seen == []
        # And once the slow writer commits, it gets both, the slow one first (transaction id order)
        await slow_tx.commit()
        seen = await _read_final_once(reader, 0, 2)
        assert [label for label, _ in seen] == ["slow", "fast"]
        # And a cursor saved after them never meets either again
        assert await _read_final(reader, seen[-1][1]) == []
    finally:
        for conn in (slow, fast, reader):
            await conn.close()


async def test_a_rolled_back_writer_leaves_no_position_and_holds_nothing_back(positions_table: str) -> None:
    writer = await asyncpg.connect(positions_table)
    reader = await asyncpg.connect(positions_table)
    try:
        tx = writer.transaction()
        await tx.start()
        await writer.execute(f"INSERT INTO commit_order_probe VALUES ('gone', {NEXT_POSITION_SQL})")
        await tx.rollback()
        async with writer.transaction():
            await writer.execute(f"INSERT INTO commit_order_probe VALUES ('kept', {NEXT_POSITION_SQL})")
        assert [label for label, _ in await _read_final_once(reader, 0, 1)] == ["kept"]
    finally:
        await writer.close()
        await reader.close()


async def test_a_transaction_of_another_database_on_the_server_holds_nothing_back(positions_table: str) -> None:
    # Given a transaction of another database on the same server (another service, another test
    # run's migration) that took a transaction id and stays open
    elsewhere = await asyncpg.connect(positions_table, database="postgres")  # (TCP or the embedded socket)
    writer = await asyncpg.connect(positions_table)
    reader = await asyncpg.connect(positions_table)
    try:
        other = elsewhere.transaction()
        await other.start()
        other_xid = int(await elsewhere.fetchval("SELECT pg_current_xact_id()::text"))
        # When this database commits a position after it began
        async with writer.transaction():
            position = await writer.fetchval(
                f"INSERT INTO commit_order_probe VALUES ('here', {NEXT_POSITION_SQL}) RETURNING position")
        assert transaction_id_of(position) > other_xid
        # Then the reader is served it while the other database's transaction is still open
        assert [label for label, _ in await _read_final_once(reader, 0, 1)] == ["here"]
        await other.rollback()
    finally:
        for conn in (elsewhere, writer, reader):
            await conn.close()
