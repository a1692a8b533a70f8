from tortoise import migrations
from tortoise.migrations import operations as ops

# The commit-order horizon of this database (core/commit_order.py): the lowest transaction id
# still running in the current statement's snapshot, leaving out the transactions of other
# databases on the same server, which never write this database's logs. A migration or a long
# transaction of another database (another service, another test run) then delays no reader here.
#
# The snapshot's in-progress list (pg_snapshot_xip) is cluster-wide; pg_stat_activity names the
# database of each backend's transaction (backend_xid, its low 32 bits). Only an id shown there
# for another database is left out: an id not shown (it ended since the snapshot, a prepared
# transaction, a subtransaction, or a row the role may not read) still holds the horizon, as the
# plain snapshot xmin would. Without any id left, the horizon is the snapshot's xmax.


class Migration(migrations.Migration):
    dependencies = [('models', '0251_merge')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                """
                CREATE FUNCTION custody_commit_horizon() RETURNS bigint
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
            reverse_sql=["DROP FUNCTION custody_commit_horizon();"],
        ),
    ]
