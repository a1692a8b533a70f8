from tortoise import migrations
from tortoise.migrations import operations as ops

# Positions in commit order without a lock (core/commit_order.py): the ordinal of a position
# within its database transaction, kept in a transaction-local setting so that it starts at 1 in
# every transaction. It refuses the 65,536th position of one transaction rather than repeat one.


class Migration(migrations.Migration):
    dependencies = [('models', '0134_merge')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                """
                CREATE FUNCTION custody_next_commit_ordinal() RETURNS bigint
                LANGUAGE plpgsql VOLATILE AS $$
                DECLARE
                    taken bigint := coalesce(
                        nullif(current_setting('custody.commit_ordinal', true), ''), '0')::bigint + 1;
                BEGIN
                    IF taken > 65535 THEN
                        RAISE EXCEPTION 'one transaction took more than 65535 log positions'
                            USING ERRCODE = 'program_limit_exceeded';
                    END IF;
                    PERFORM set_config('custody.commit_ordinal', taken::text, true);
                    RETURN taken;
                END
                $$;
                """,
            ],
            reverse_sql=["DROP FUNCTION custody_next_commit_ordinal();"],
        ),
    ]
