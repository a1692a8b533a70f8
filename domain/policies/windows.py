"""Rolling windows: exact count and sums of what a rule selected over the last ``seconds``.

Storage (models.policies): one entry per (window key, withdrawal), and running totals per
(window key, bucket) where a bucket is 1/60 of the window (at least a second). The usage at
``now`` is the buckets that lie wholly inside ``[now - seconds, now]`` plus the live entries of
the one partial bucket at the window's start: at most ~61 bucket rows and 1/60 of the entries,
read for every window of a policy in ONE statement (:func:`usage`), never a scan of the window.

Exact under concurrency: the check stage takes a transaction-scoped advisory lock on every
window key it reads (:func:`lock`, sorted keys, so two stages never wait on each other in a
cycle), reads, decides and records in the same database transaction; a second withdrawal racing
for the last room waits for the first to commit and then sees its entry.

Release (:func:`release_transaction`): an entry leaves its bucket's totals exactly once
(``released_at``); :func:`retake_transaction` counts a released entry again (an unfreeze).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Sequence

from tortoise import connections

from core import clock

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
BUCKETS_PER_WINDOW = 60


@dataclass(frozen=True)
class Usage:
    count: int = 0
    amount: int = 0
    amount_usd: Decimal = Decimal(0)

    def to_dict(self) -> dict[str, str | int]:
        return {"count": self.count, "amount": str(self.amount), "amount_usd": str(self.amount_usd)}


def bucket_seconds(window_seconds: int) -> int:
    return max(1, window_seconds // BUCKETS_PER_WINDOW)


def bucket_of(at: datetime, window_seconds: int) -> datetime:
    size = bucket_seconds(window_seconds)
    offset = int((at - _EPOCH).total_seconds()) // size * size
    return _EPOCH + timedelta(seconds=offset)


def _full_start(start: datetime, window_seconds: int) -> datetime:
    floor = bucket_of(start, window_seconds)
    return floor if floor == start else floor + timedelta(seconds=bucket_seconds(window_seconds))


def _lock_id(key: str) -> int:
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)


async def lock(keys: Sequence[str]) -> None:
    """Transaction-scoped advisory locks on the window keys, in a fixed order."""
    ids = sorted({_lock_id(k) for k in keys})
    if ids:
        await connections.get("default").execute_query(
            "SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k", [ids])


_USAGE_SQL = """
WITH k(key, start_at, full_start) AS (
    SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[])
)
SELECT k.key,
       COALESCE(b.count, 0) + COALESCE(e.count, 0) AS count,
       COALESCE(b.amount, 0) + COALESCE(e.amount, 0) AS amount,
       COALESCE(b.amount_usd, 0) + COALESCE(e.amount_usd, 0) AS amount_usd
FROM k
LEFT JOIN LATERAL (
    SELECT sum(count) AS count, sum(amount) AS amount, sum(amount_usd) AS amount_usd
    FROM policy_window_buckets WHERE window_key = k.key AND bucket >= k.full_start
) b ON true
LEFT JOIN LATERAL (
    SELECT count(*) AS count, sum(amount) AS amount, sum(COALESCE(amount_usd, 0)) AS amount_usd
    FROM policy_window_entries
    WHERE window_key = k.key AND at >= k.start_at AND at < k.full_start AND released_at IS NULL
) e ON true
"""


async def usage(windows: Sequence[tuple[str, int]], *, now: datetime | None = None) -> dict[str, Usage]:
    """The usage of each ``(key, seconds)`` at ``now``, in one statement."""
    if not windows:
        return {}
    now = now or clock.now()
    keys, starts, fulls = [], [], []
    for key, seconds in windows:
        start = now - timedelta(seconds=seconds)
        keys.append(key)
        starts.append(start)
        fulls.append(_full_start(start, seconds))
    rows = await connections.get("default").execute_query_dict(_USAGE_SQL, [keys, starts, fulls])
    return {row["key"]: Usage(int(row["count"]), int(row["amount"]), Decimal(row["amount_usd"])) for row in rows}


async def record(*, workspace_id: uuid.UUID, transaction_id: uuid.UUID, windows: Sequence[tuple[str, int]],
                 amount: int, amount_usd: Decimal | None, now: datetime | None = None) -> None:
    """Count the withdrawal in each window (the caller holds the keys' locks): two statements
    whatever the number of windows. Idempotent per key."""
    if not windows:
        return
    now = now or clock.now()
    keys = [key for key, _ in windows]
    buckets = [bucket_of(now, seconds) for _, seconds in windows]
    inserted = await connections.get("default").execute_query_dict(
        "INSERT INTO policy_window_entries (id, workspace_id, window_key, transaction_id, amount, amount_usd, at,"
        " bucket) SELECT gen_random_uuid(), $1, k.key, $2, $3, $4, $5, k.bucket"
        " FROM unnest($6::text[], $7::timestamptz[]) AS k(key, bucket)"
        " ON CONFLICT (window_key, transaction_id) DO NOTHING RETURNING window_key, bucket",
        [workspace_id, transaction_id, amount, amount_usd, now, keys, buckets])
    await _add_many([(r["window_key"], r["bucket"], 1, amount, amount_usd or Decimal(0)) for r in inserted])


async def _add_many(changes: Sequence[tuple[str, datetime, int, int, Decimal]]) -> None:
    """Add to the running totals of many (key, bucket) pairs in one statement (sorted: two
    writers never wait on each other's rows in a cycle)."""
    if not changes:
        return
    merged: dict[tuple[str, datetime], list] = {}
    for key, bucket, count, amount, usd in changes:
        slot = merged.setdefault((key, bucket), [0, 0, Decimal(0)])
        slot[0] += count
        slot[1] += amount
        slot[2] += usd
    rows = sorted(merged.items())
    await connections.get("default").execute_query(
        "INSERT INTO policy_window_buckets (id, window_key, bucket, count, amount, amount_usd)"
        " SELECT gen_random_uuid(), k, b, c, a, u"
        " FROM unnest($1::text[], $2::timestamptz[], $3::int[], $4::numeric[], $5::numeric[]) AS t(k, b, c, a, u)"
        " ON CONFLICT (window_key, bucket) DO UPDATE SET"
        " count = policy_window_buckets.count + EXCLUDED.count,"
        " amount = policy_window_buckets.amount + EXCLUDED.amount,"
        " amount_usd = policy_window_buckets.amount_usd + EXCLUDED.amount_usd",
        [[k for (k, _), _ in rows], [b for (_, b), _ in rows], [v[0] for _, v in rows], [v[1] for _, v in rows],
         [v[2] for _, v in rows]])


async def release_transaction(transaction_id: uuid.UUID) -> int:
    """Take the withdrawal out of every window it is counted in (once); returns how many."""
    conn = connections.get("default")
    rows = await conn.execute_query_dict(
        "UPDATE policy_window_entries SET released_at = $2 WHERE transaction_id = $1 AND released_at IS NULL"
        " RETURNING window_key, bucket, amount, amount_usd", [transaction_id, clock.now()])
    await _add_many([(r["window_key"], r["bucket"], -1, -int(r["amount"]), -Decimal(r["amount_usd"] or 0))
                     for r in rows])
    return len(rows)


async def retake_transaction(transaction_id: uuid.UUID) -> int:
    """Count a released withdrawal again in the windows it was released from (an unfreeze), under
    the windows' locks, in the buckets it was first counted in."""
    conn = connections.get("default")
    keys = await conn.execute_query_dict(
        "SELECT window_key FROM policy_window_entries WHERE transaction_id = $1 AND released_at IS NOT NULL",
        [transaction_id])
    await lock([row["window_key"] for row in keys])
    rows = await conn.execute_query_dict(
        "UPDATE policy_window_entries SET released_at = NULL WHERE transaction_id = $1 AND released_at IS NOT NULL"
        " RETURNING window_key, bucket, amount, amount_usd", [transaction_id])
    await _add_many([(r["window_key"], r["bucket"], 1, int(r["amount"]), Decimal(r["amount_usd"] or 0))
                     for r in rows])
    return len(rows)
