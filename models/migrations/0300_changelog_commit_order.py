from tortoise import migrations
from tortoise.migrations import operations as ops

# The transactions' change log takes its positions in commit order without a lock
# (core/commit_order.py): ``xid << 16 | ordinal`` instead of a per-workspace counter row. The
# counter's ``position`` goes; the row keeps ``min_cursor`` (written by compaction only).
#
# Positions already handed out (1, 2, 3, ... per workspace) stay as they are: cursors that clients
# saved stay valid, provided every new position is above them. A new position is at least the
# current transaction id << 16; the check refuses to migrate a database where an old position is
# not below that (it would take more than 65,535 changes per database transaction so far), rather
# than let a reader skip changes.


class Migration(migrations.Migration):
    dependencies = [('models', '0251_merge')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                """
                DO $$
                BEGIN
                    IF EXISTS (SELECT 1 FROM transactions
                               WHERE seq >= (pg_current_xact_id()::text::bigint << 16)) THEN
                        RAISE EXCEPTION 'change-log positions above the commit-order positions: renumber first';
                    END IF;
                END
                $$;
                """,
            ],
            reverse_sql=[],
        ),
        ops.RemoveField(model_name='ChangeLog', name='position'),
    ]
