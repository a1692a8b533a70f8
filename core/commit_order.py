"""Positions in commit order without a lock: derived from PostgreSQL transaction ids.

A log that readers page by position (the transactions' change log, the audit chain) needs two
properties: positions only grow, and a reader never pages past a position that a slower writer
commits later (a gap filled behind the reader's back is a change the reader never sees). A
counter row incremented by every writer gives both, but every writer then waits for the one
before it to commit. This module gives both with no lock at all:

Writing
    A change stores the position ``xid << 16 | ordinal``: ``xid`` is the writing transaction's
    top-level id (``pg_current_xact_id()``, 64 bits with its epoch; the same inside savepoints)
    and ``ordinal`` counts the positions that transaction took (1, 2, ...; a transaction-local
    setting, so it starts again at 1 in every transaction). Positions are unique and ordered by
    transaction id, then by the order they were taken. A transaction may take at most
    :data:`MAX_ORDINAL` positions; one more raises (an error, never a duplicate).

Reading
    PostgreSQL hands out transaction ids in increasing order, and a snapshot's ``xmin`` is the
    oldest transaction id still running when the snapshot was taken. Every transaction with an
    id below ``xmin`` has therefore ended (committed or rolled back), and every transaction that
    is still running or not yet started has an id of ``xmin`` or more. So the positions below
    ``xmin << 16`` (the *horizon*) are final: none of them can appear later. A reader that serves
    only positions below the horizon of the very snapshot it reads with (one SQL statement: its
    snapshot and its ``xmin`` are the same) never meets a gap that is filled later. The same
    holds for any id below which every transaction *of this database* has ended (below).

What it costs
    A transaction of this database that stays open holds the horizon back for every reader of
    every log until it ends: changes behind it are served late, never lost or reordered. Keep
    transactions short, and long-running work out of transactions (``custody_oldest_transaction
    _age_seconds``-style alerts on ``pg_stat_activity`` catch the ones that are not).
    Transaction ids are shared by every database of a PostgreSQL server, so the horizon leaves
    out the transactions that ``pg_stat_activity`` shows running in *other* databases (they never
    write this one): another service's migration on the same server delays nothing here. An id it
    cannot place (ended since the snapshot, a prepared or subtransaction, a row the role may not
    read) holds the horizon, as the plain snapshot xmin would: never a gap, at worst a delay.
    One read of ``pg_stat_activity`` is not enough to place an id: PostgreSQL copies a backend's
    status (its database) and reads its transaction id from the process slot separately, so a
    slot that a backend of another database left and one of this database took in between pairs
    this database's transaction with the other database. The horizon then passed a running
    transaction of this database (seen as a horizon going back under load, with many databases on
    one server). An id is therefore left out only when two fresh reads, one after the other, show
    it under the same backend process in another database (migration 0470: the second read copies
    the slot's status after the first saw the id there, when the slot's new backend has
    registered, so a mislabelled pair cannot appear in both).

Capacity
    Positions fit a signed 64-bit column for 2**47 transaction ids, and stay below 2**53 (exact
    in a JavaScript number) for the first 2**37 (137 billion) transaction ids of the cluster.
"""

from __future__ import annotations

#: How many positions one database transaction may take (the 16 low bits of a position).
MAX_ORDINAL = 0xFFFF

#: A SQL expression: the next position of the current transaction (takes an ordinal; volatile,
#: so a multi-row UPDATE gives every row its own position). Raises on the 65,536th position.
NEXT_POSITION_SQL = (
    "((pg_current_xact_id()::text::bigint << 16)"
    " | custody_next_commit_ordinal())"
)

#: A SQL expression: every position below it is final in the current statement's snapshot. The
#: function (migration 0252_commit_horizon) is the snapshot's xmin, leaving out the transactions
#: of other databases on the same server (see "What it costs").
HORIZON_SQL = "custody_commit_horizon()"

#: A SQL expression: every position ever handed out below a horizon is below it (the snapshot's
#: ``xmax << 16``; ``xmax`` is the last ended transaction id plus one, so it never goes back, and
#: every horizon is at most the ``xmax`` of its own snapshot). The horizon itself may step back
#: a little between statements (an id that ended between a statement's snapshot and its look at
#: ``pg_stat_activity`` cannot be placed and holds it), so "was this cursor ever handed out" is
#: asked of this bound, not of the horizon.
HANDED_OUT_BOUND_SQL = "(pg_snapshot_xmax(pg_current_snapshot())::text::bigint << 16)"

#: The SQL function behind NEXT_POSITION_SQL is created by migration 0135_commit_order (its body
#: is frozen there, as a migration's must be).
ORDINAL_FUNCTION = "custody_next_commit_ordinal"


def transaction_id_of(position: int) -> int:
    """The database transaction that wrote ``position``."""
    return position >> 16


def ordinal_of(position: int) -> int:
    """Which of its transaction's positions ``position`` is (1 for the first)."""
    return position & MAX_ORDINAL
