from tortoise import migrations
from tortoise.migrations import operations as ops

# The audit log is append-only: the database itself refuses UPDATE and DELETE, so no code
# path (nor a careless operator with the service's credentials) can rewrite history.
# The outbox relay scans pending commands by due time, hence the partial index.


class Migration(migrations.Migration):
    dependencies = [('models', '0001_initial')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                """
                CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION 'audit_log is append-only';
                END;
                $$;
                """,
                """
                CREATE TRIGGER audit_log_append_only
                BEFORE UPDATE OR DELETE ON audit_log
                FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();
                """,
                """
                CREATE INDEX outbox_commands_pending_due
                ON outbox_commands (run_at) WHERE status = 'pending';
                """,
            ],
            reverse_sql=[
                "DROP INDEX outbox_commands_pending_due;",
                "DROP TRIGGER audit_log_append_only ON audit_log;",
                "DROP FUNCTION audit_log_refuse_change();",
            ],
        ),
    ]
