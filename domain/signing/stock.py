"""The single-use stock: sealed secret items made ahead of time, each used by at most one session.

FROST round-one nonces (RFC 9591 section 5.1 allows committing ahead of time) and ECDSA
presignatures are the same kind of thing: secret material that signs safely once and leaks the
key if it ever signs twice. This module is the one mechanism for both. An item belongs to a
``kind`` (what it is and which scheme uses it), a ``holder`` (the participant that can open it,
``"1"``, or a signer pair, ``"1+2"``: :func:`holder_of`) and optionally a key set (null: usable
with any key set of its kind). Rows live in ``single_use_stock`` (models/stock.py).

The rules, in the order the functions apply them:

1. :func:`add` stores a batch of items, each with an optional public part (the coordinator reads
   it, e.g. the commitments) and a secret part sealed with the holder's key (core.sealing; a pair
   item's secret is sealed by its makers before it comes here, and ``share_key=None`` stores it
   as given). State ``available``.
2. :func:`take` binds ``count`` available items of each holder to one session, in the caller's
   transaction, with ``FOR UPDATE SKIP LOCKED`` (concurrent takers never wait on each other nor
   get the same item). All or nothing: when a holder has too few, the items already picked are
   put back in the same statement's transaction and :class:`StockEmpty` is raised. State
   ``taken``; ``session_id`` never changes again. The caller's transaction must commit before
   anything derived from an item (a signature share) leaves: that is what makes the binding
   survive crashes and retries (a retried request takes fresh items; a retried session finds
   its own). :func:`take_matching` binds one item per holder that all carry one public part
   (the holders' shares of one thing made together, an ECDSA presignature's parts).
3. :func:`use` is the one way to the secret: it locks the holder's item taken by the session,
   wipes the sealed part and marks it ``used`` in the caller's transaction, and returns the
   opened secret. The caller stores what it derives (the signature share) in that same
   transaction, so the output is visible only once the item is spent. An item already used, or
   taken by another session, or never taken, is refused (:class:`StockItemUsed`): the secret is
   never handed out twice. If the transaction rolls back (a crash), the item is still taken by
   that session only, and the retry of the same session (same message, same commitments) uses it.
   :func:`use_each` does the same for many sessions in one statement (a batched signer).
4. :func:`discard` wipes items that must never sign: available ones (a rotated key, a lost
   holder) or those taken by a session that ended without using them. State ``discarded``.
   The sweep's :func:`discard_unmatched` wipes available parts that have no partner (a run
   where one holder stored its part and the other failed) after a grace period, and
   :func:`discard_retired` those of key sets that will never sign again.
5. :func:`count` and :func:`counts` say how many are available, for refill decisions;
   :func:`purge` deletes spent rows (``used``, ``discarded``) older than a time (the presignature
   sweep, past :data:`SPENT_RETENTION`).

The database enforces the state rule as well (a CHECK in migration 0320): ``available`` has no
session, every other state has one or is ``discarded``, and only ``available``/``taken`` keep a
sealed part. Nothing here ever moves an item back to ``available`` after a commit.
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable, Sequence

from tortoise import connections
from tortoise.backends.base.client import BaseDBAsyncClient

from core import clock, sealing
from domain.errors import Conflict


class StockEmpty(Conflict):
    """A holder had fewer available items than the session needs (nothing was taken)."""

    code = "STOCK_EMPTY"


class StockItemUsed(Conflict):
    """The session holds no unused item of this holder: it was used, discarded or never taken."""

    code = "STOCK_ITEM_USED"


@dataclass(frozen=True)
class Item:
    """An item as the stock hands it out: ``secret`` only from :func:`use`."""

    id: uuid.UUID
    holder: str
    public: bytes | None
    secret: bytes | None = None


def holder_of(participants: int | Iterable[int]) -> str:
    """The holder name of one participant (``"1"``) or a group of them (``"1+2"``, sorted)."""
    if isinstance(participants, int):
        return str(participants)
    return "+".join(str(p) for p in sorted(set(participants)))


def _db() -> BaseDBAsyncClient:
    return connections.get("default")


async def add(*, kind: str, holder: str, items: Sequence[tuple[bytes | None, bytes]],
              share_key: bytes | None, key_set_id: uuid.UUID | None = None) -> list[uuid.UUID]:
    """Store ``items`` as ``(public, secret)`` pairs, the secrets sealed with ``share_key`` (one
    INSERT for the batch); ``share_key=None``: the secrets are already sealed by their makers."""
    if not items:
        return []
    ids = [uuid.uuid4() for _ in items]
    sealed = [bytes(secret) if share_key is None else sealing.seal(bytes(secret), key=share_key)
              for _, secret in items]
    publics = [None if public is None else bytes(public) for public, _ in items]
    await _db().execute_query(
        "INSERT INTO single_use_stock (id, created_at, kind, key_set_id, holder, public, sealed, state) "
        "SELECT i, $1, $2, $3, $4, p, s, 'available' "
        "FROM unnest($5::uuid[], $6::bytea[], $7::bytea[]) AS t(i, p, s)",
        [clock.now(), kind, key_set_id, holder, ids, publics, sealed],
    )
    return ids


def _key_set_condition(for_key_set: bool, param: int) -> str:
    """The items of a key set (its id the parameter ``$param``), or those of any key set."""
    return f"key_set_id = ${param}" if for_key_set else "key_set_id IS NULL"


def _key_set_clause(key_set_id: uuid.UUID | None, param: int) -> tuple[str, list]:
    return _key_set_condition(key_set_id is not None, param), [] if key_set_id is None else [key_set_id]


async def take(*, kind: str, holders: Sequence[str], session_id: uuid.UUID, count: int = 1,
               key_set_id: uuid.UUID | None = None) -> list[Item]:
    """Bind ``count`` available items of each of ``holders`` to ``session_id`` (caller's
    transaction), oldest first; raise :class:`StockEmpty` (nothing taken) when one has too few.

    Returns the items sorted by holder, with their public parts (never their secrets)."""
    if count < 1 or not holders:
        raise ValueError("take at least one item of at least one holder")
    rows = await _db().execute_query_dict(
        _take_sql(len(holders), key_set_id is not None),
        [*holders, kind, count, session_id, clock.now(), *([] if key_set_id is None else [key_set_id])],
    )
    got: dict[str, int] = {}
    for row in rows:
        got[row["holder"]] = got.get(row["holder"], 0) + 1
    short = {h: got.get(h, 0) for h in holders if got.get(h, 0) < count}
    if short:
        # Nothing derived from these left (the transaction has not committed): put them back.
        await _db().execute_query(
            "UPDATE single_use_stock SET state = 'available', session_id = NULL, taken_at = NULL "
            "WHERE id = ANY($1::uuid[]) AND session_id = $2 AND state = 'taken'",
            [[row["id"] for row in rows], session_id],
        )
        raise StockEmpty(f"the {kind} stock of {', '.join(short)} has fewer than {count} item(s)",
                         details={"kind": kind, "available": short, "needed": count})
    return sorted((Item(id=row["id"], holder=row["holder"], public=_bytes(row["public"])) for row in rows),
                  key=lambda item: (item.holder, str(item.id)))


@functools.cache
def _take_sql(holders: int, for_key_set: bool) -> str:
    """:func:`take`'s statement for ``holders`` holders, each its own parameter: with an array
    (``unnest``) PostgreSQL's generic plan assumes ten holders, so it planned the statement
    anew on every take (as long as its execution, bench/signing_pools.py); with ``VALUES`` it
    plans it once per connection."""
    values = ", ".join(f"(${number}::text)" for number in range(1, holders + 1))
    clause = _key_set_condition(for_key_set, holders + 5)
    return ("WITH picked AS ("
            f" SELECT s.id FROM (VALUES {values}) AS h(holder) CROSS JOIN LATERAL ("
            "  SELECT id FROM single_use_stock"
            f"  WHERE kind = ${holders + 1} AND holder = h.holder AND {clause} AND state = 'available'"
            f"  ORDER BY created_at LIMIT ${holders + 2} FOR UPDATE SKIP LOCKED) s)"
            f" UPDATE single_use_stock u SET state = 'taken', session_id = ${holders + 3}, taken_at = ${holders + 4}"
            " FROM picked WHERE u.id = picked.id RETURNING u.id, u.holder, u.public")


async def take_matching(*, kind: str, holders: Sequence[str], session_id: uuid.UUID,
                        key_set_id: uuid.UUID | None = None) -> list[Item]:
    """Bind one available item of each of ``holders`` to ``session_id``, all with the same public
    part (the holders' shares of one thing made together: an ECDSA presignature's parts, whose
    public part is its ``R``), oldest first; :class:`StockEmpty` when no public part has an
    available item of every holder. A holder's item without its partners (one signer stored its
    part, the other's run failed) is never taken.

    The first holder's item is locked (``FOR UPDATE SKIP LOCKED``): concurrent takers pick
    different parts; the others' items are taken under the update's own row lock and state check."""
    if not holders:
        raise ValueError("take at least one holder's item")
    clause, extra = _key_set_clause(key_set_id, 5)
    clause_a = clause.replace("key_set_id", "a.key_set_id")
    clause_b = clause.replace("key_set_id", "b.key_set_id")
    rows = await _db().execute_query_dict(
        "WITH candidate AS ("
        " SELECT a.public FROM single_use_stock a"
        f" WHERE a.kind = $2 AND a.holder = ($1::text[])[1] AND {clause_a} AND a.state = 'available'"
        "  AND a.public IS NOT NULL"
        "  AND (SELECT count(DISTINCT b.holder) FROM single_use_stock b"
        f"       WHERE b.kind = $2 AND b.public = a.public AND {clause_b} AND b.state = 'available'"
        "       AND b.holder = ANY($1::text[])) = cardinality($1::text[])"
        " ORDER BY a.created_at LIMIT 1 FOR UPDATE OF a SKIP LOCKED),"
        " picked AS (SELECT DISTINCT ON (s.holder) s.id FROM single_use_stock s, candidate"
        "  WHERE s.kind = $2 AND s.public = candidate.public AND s.holder = ANY($1::text[])"
        "  AND s.state = 'available' ORDER BY s.holder, s.created_at)"
        " UPDATE single_use_stock u SET state = 'taken', session_id = $3, taken_at = $4"
        " FROM picked WHERE u.id = picked.id AND u.state = 'available' RETURNING u.id, u.holder, u.public",
        [list(holders), kind, session_id, clock.now(), *extra],
    )
    if {row["holder"] for row in rows} != set(holders):
        if rows:
            await _db().execute_query(
                "UPDATE single_use_stock SET state = 'available', session_id = NULL, taken_at = NULL "
                "WHERE id = ANY($1::uuid[]) AND session_id = $2 AND state = 'taken'",
                [[row["id"] for row in rows], session_id],
            )
        raise StockEmpty(f"the {kind} stock has no item held by all of {', '.join(holders)}",
                         details={"kind": kind, "holders": list(holders), "needed": 1})
    return sorted((Item(id=row["id"], holder=row["holder"], public=_bytes(row["public"])) for row in rows),
                  key=lambda item: (item.holder, str(item.id)))


async def taken(*, session_id: uuid.UUID, kind: str | None = None) -> list[Item]:
    """The items bound to a session (any state), public parts only, sorted by holder."""
    rows = await _db().execute_query_dict(
        "SELECT id, holder, public FROM single_use_stock WHERE session_id = $1"
        + (" AND kind = $2" if kind is not None else "") + " ORDER BY holder, id",
        [session_id] + ([kind] if kind is not None else []),
    )
    return [Item(id=row["id"], holder=row["holder"], public=_bytes(row["public"])) for row in rows]


async def use(*, session_id: uuid.UUID, holder: str, kind: str, share_key: bytes | None,
              item_id: uuid.UUID | None = None) -> Item:
    """Spend the holder's item taken by ``session_id`` (in the caller's transaction, which must
    also store what is derived from it) and return it with its opened secret.

    ``item_id`` picks one item when the session took several (else the first by id). Raises
    :class:`StockItemUsed` when there is no taken, unused item: used, discarded, taken by
    another session or never taken.
    """
    spent = await _use([session_id], holder, kind, share_key, item_id)
    if session_id not in spent:
        raise StockItemUsed(f"holder {holder} has no unused {kind} item for this session; it will not sign again",
                            details={"holder": holder, "session_id": str(session_id), "kind": kind})
    return spent[session_id]


async def use_each(*, session_ids: Sequence[uuid.UUID], holder: str, kind: str,
                   share_key: bytes | None, skip_locked: bool = False) -> dict[uuid.UUID, Item]:
    """:func:`use` for many sessions in one statement (a batched signer): one item per session,
    the first by id; a session missing from the result has no unused item (refused).

    ``skip_locked``: leave out items another transaction holds locked instead of waiting for it.
    Beware: a lock is not always a user's. A :func:`take` whose candidate was taken by another
    session while it ran keeps that row locked until it commits (PostgreSQL keeps the lock of a
    row that fails the re-check under ``FOR UPDATE``), so a skipping user may leave out an item
    nobody is spending; the signers wait instead (domain.signing.service_signer.sign_sessions)."""
    if not session_ids:
        return {}
    return await _use(list(session_ids), holder, kind, share_key, None, skip_locked=skip_locked)


async def _use(session_ids: list[uuid.UUID], holder: str, kind: str, share_key: bytes | None,
               item_id: uuid.UUID | None, *, skip_locked: bool = False) -> dict[uuid.UUID, Item]:
    # The item is locked and its state checked again under the lock (a concurrent user of the
    # same item waits, then finds it used): the secret comes out of exactly one transaction.
    # Locked in id order: two users of overlapping items wait for each other, never deadlock.
    rows = await _db().execute_query_dict(
        "WITH old AS (SELECT id, session_id, public, sealed FROM single_use_stock"
        " WHERE state = 'taken' AND id IN (SELECT DISTINCT ON (session_id) id FROM single_use_stock"
        "  WHERE session_id = ANY($1::uuid[]) AND holder = $2 AND kind = $3 AND state = 'taken'"
        + (" AND id = $5" if item_id is not None else "")
        + "  ORDER BY session_id, id) ORDER BY id FOR UPDATE" + (" SKIP LOCKED" if skip_locked else "") + ")"
        " UPDATE single_use_stock u SET state = 'used', sealed = NULL, used_at = $4"
        " FROM old WHERE u.id = old.id AND u.state = 'taken'"
        " RETURNING old.id, old.session_id, old.public, old.sealed",
        [session_ids, holder, kind, clock.now()] + ([item_id] if item_id is not None else []),
    )
    spent = {}
    for row in rows:
        sealed = bytes(row["sealed"])
        secret = sealed if share_key is None else sealing.unseal(sealed, key=share_key)
        spent[row["session_id"]] = Item(id=row["id"], holder=holder, public=_bytes(row["public"]), secret=secret)
    return spent


async def discard(*, kind: str | None = None, holder: str | None = None, key_set_id: uuid.UUID | None = None,
                  session_id: uuid.UUID | None = None) -> int:
    """Wipe items that must never sign: the unused ones taken by ``session_id`` when given, else
    the available ones of ``kind`` (and ``holder``/``key_set_id`` when given). Returns how many."""
    params: list[object]
    if session_id is not None:
        where, params = "session_id = $2 AND state = 'taken'", [session_id]
    elif kind is not None:
        where, params = "kind = $2 AND state = 'available'", [kind]
        if holder is not None:
            params.append(holder)
            where += f" AND holder = ${len(params) + 1}"
        if key_set_id is not None:
            params.append(key_set_id)
            where += f" AND key_set_id = ${len(params) + 1}"
    else:
        raise ValueError("discard needs a session or a kind")
    count, _ = await _db().execute_query(
        f"UPDATE single_use_stock SET state = 'discarded', sealed = NULL, used_at = $1 WHERE {where}",
        [clock.now(), *params],
    )
    return count


async def discard_unmatched(*, kind: str, holders: Sequence[str], before: datetime) -> int:
    """Wipe the available items of ``kind`` made before ``before`` that can never be taken by
    :func:`take_matching` with ``holders``: those whose public part has no available item of
    every other holder of the same key set (one signer stored its part of a presignature, the
    other's run failed, or the partner was discarded). Returns how many were wiped."""
    count, _ = await _db().execute_query(
        "UPDATE single_use_stock s SET state = 'discarded', sealed = NULL, used_at = $4"
        " WHERE s.kind = $1 AND s.state = 'available' AND s.holder = ANY($2::text[]) AND s.created_at < $3"
        " AND (s.public IS NULL OR (SELECT count(DISTINCT b.holder) FROM single_use_stock b"
        "  WHERE b.kind = s.kind AND b.public = s.public AND b.state = 'available'"
        "  AND b.key_set_id IS NOT DISTINCT FROM s.key_set_id AND b.holder = ANY($2::text[]))"
        "  < cardinality($2::text[]))",
        [kind, list(holders), before, clock.now()],
    )
    return count


async def discard_retired(*, kinds: Sequence[str]) -> int:
    """Wipe the available items of ``kinds`` whose key set will never sign again: not ``ready``
    (failed), or superseded by a newer ready key set of the same vault and scheme. (Items of a
    key set deleted outright go with its row.) Returns how many were wiped."""
    count, _ = await _db().execute_query(
        "UPDATE single_use_stock s SET state = 'discarded', sealed = NULL, used_at = $2"
        " FROM key_sets k WHERE s.key_set_id = k.id AND s.kind = ANY($1::text[]) AND s.state = 'available'"
        " AND (k.status <> 'ready' OR EXISTS (SELECT 1 FROM key_sets n WHERE n.vault_id = k.vault_id"
        "  AND n.scheme = k.scheme AND n.status = 'ready' AND n.created_at > k.created_at))",
        [list(kinds), clock.now()],
    )
    return count


async def exists(*, kind: str, holder: str, key_set_id: uuid.UUID | None, public: bytes) -> bool:
    """Whether the holder has any item (in any state) of ``kind`` with this public part."""
    clause, extra = _key_set_clause(key_set_id, 4)
    rows = await _db().execute_query_dict(
        f"SELECT 1 FROM single_use_stock WHERE kind = $1 AND holder = $2 AND public = $3 AND {clause} LIMIT 1",
        [kind, holder, bytes(public), *extra])
    return bool(rows)


async def unmatched_since(*, kind: str, holder: str, partner: str, key_set_id: uuid.UUID,
                          since: datetime) -> bool:
    """Whether ``holder`` has an available item of ``kind`` made after ``since`` that ``partner``
    has no available item of the same public part for (yet)."""
    rows = await _db().execute_query_dict(
        "SELECT 1 FROM single_use_stock a WHERE a.kind = $1 AND a.holder = $2 AND a.key_set_id = $4"
        " AND a.state = 'available' AND a.created_at >= $5 AND NOT EXISTS (SELECT 1 FROM single_use_stock b"
        "  WHERE b.kind = a.kind AND b.holder = $3 AND b.key_set_id = a.key_set_id AND b.public = a.public"
        "  AND b.state = 'available') LIMIT 1",
        [kind, holder, partner, key_set_id, since])
    return bool(rows)


async def count(*, kind: str, holder: str, key_set_id: uuid.UUID | None = None) -> int:
    """Available items of one holder (and key set), for a refill decision."""
    clause, extra = _key_set_clause(key_set_id, 3)
    rows = await _db().execute_query_dict(
        f"SELECT count(*) AS n FROM single_use_stock WHERE kind = $1 AND holder = $2 AND {clause}"
        " AND state = 'available'", [kind, holder, *extra])
    return int(rows[0]["n"])


async def counts(*, kind: str) -> dict[tuple[str, uuid.UUID | None], int]:
    """Available items of ``kind`` per (holder, key set)."""
    rows = await _db().execute_query_dict(
        "SELECT holder, key_set_id, count(*) AS n FROM single_use_stock"
        " WHERE kind = $1 AND state = 'available' GROUP BY holder, key_set_id", [kind])
    return {(row["holder"], row["key_set_id"]): int(row["n"]) for row in rows}


#: How long a spent row (used or discarded, its secret already wiped) is kept: it says which
#: session took which item, for an investigation; the presignature sweep purges older ones.
SPENT_RETENTION = timedelta(days=1)
#: Rows one purge statement deletes at most (a long backlog takes several, each short).
PURGE_BATCH = 10_000


async def purge(*, before: datetime, batch: int = PURGE_BATCH) -> int:
    """Delete spent rows (used or discarded before ``before``), at most ``batch``; their secrets
    are already gone, and an item without its row is refused by :func:`use` all the same."""
    deleted, _ = await _db().execute_query(
        "DELETE FROM single_use_stock WHERE id IN (SELECT id FROM single_use_stock "
        "WHERE state IN ('used', 'discarded') AND used_at < $1 ORDER BY used_at LIMIT $2)", [before, batch])
    return deleted


def _bytes(value: bytes | memoryview | None) -> bytes | None:
    return None if value is None else bytes(value)
