from tortoise import migrations
from tortoise.migrations import operations as ops

# The commit-order horizon (core/commit_order.py) leaves out the transactions that
# pg_stat_activity shows running in other databases. One read of pg_stat_activity can pair a
# backend's database with another backend's transaction id: PostgreSQL copies each backend's
# status entry, then reads the transaction id from the process slot separately, so a slot that
# a backend of another database left and a backend of this database took in between shows this
# database's transaction under the other's database. That transaction was then left out, the
# horizon passed it, and a reader could be served positions beyond a transaction that committed
# later (seen as a horizon going back: "since_cursor is ahead of the log", under load with many
# databases on one server). The read was also cached for the whole transaction.
#
# Now an id is left out only when two fresh reads, one after the other, both show it under the
# same backend process and in another database. The second read's status entry is copied after
# the first read saw the id in its slot, so the slot's new backend had registered by then: a
# mislabelled pair cannot appear in both. An id left unplaced still holds the horizon, as the
# plain snapshot xmin would. STABLE plpgsql runs with the calling statement's snapshot, so the
# horizon is still that of the snapshot the reader reads with.


class Migration(migrations.Migration):
    dependencies = [('models', '0430_withdrawal_replacements')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                """
                CREATE OR REPLACE FUNCTION custody_commit_horizon() RETURNS bigint
                LANGUAGE plpgsql STABLE AS $$
                DECLARE
                    snapshot pg_snapshot := pg_current_snapshot();
                    here oid := (SELECT oid FROM pg_database WHERE datname = current_database());
                    first_read bigint[];
                    elsewhere bigint[];
                BEGIN
                    PERFORM pg_stat_clear_snapshot();
                    SELECT coalesce(array_agg((other.pid::bigint << 32) | other.backend_xid::text::bigint), '{}')
                      INTO first_read
                      FROM pg_stat_activity AS other
                     WHERE other.backend_xid IS NOT NULL AND other.datid IS DISTINCT FROM here;
                    PERFORM pg_stat_clear_snapshot();
                    SELECT coalesce(array_agg(other.backend_xid::text::bigint), '{}')
                      INTO elsewhere
                      FROM pg_stat_activity AS other
                     WHERE other.backend_xid IS NOT NULL AND other.datid IS DISTINCT FROM here
                       AND ((other.pid::bigint << 32) | other.backend_xid::text::bigint) = ANY (first_read);
                    PERFORM pg_stat_clear_snapshot();
                    RETURN coalesce(
                        (SELECT min(running::text::bigint) FROM pg_snapshot_xip(snapshot) AS running
                          WHERE (running::text::bigint & 4294967295) <> ALL (elsewhere)),
                        pg_snapshot_xmax(snapshot)::text::bigint) << 16;
                END
                $$;
                """,
            ],
            reverse_sql=[
                """
                CREATE OR REPLACE FUNCTION custody_commit_horizon() RETURNS bigint
                LANGUAGE sql STABLE AS $$
                    SELECT coalesce(
                        (SELECT min(running::text::bigint) FROM pg_snapshot_xip(snapshot) AS running
                         WHERE (running::text::bigint & 4294967295) NOT IN (
                             SELECT other.backend_xid::text::bigint FROM pg_stat_activity AS other
                             WHERE other.backend_xid IS NOT NULL
                               AND other.datid IS DISTINCT FROM (
                                   SELECT oid FROM pg_database WHERE datname = current_database()))),
                        pg_snapshot_xmax(snapshot)::text::bigint) << 16
                    FROM pg_current_snapshot() AS snapshot
                $$;
                """,
            ],
        ),
    ]
