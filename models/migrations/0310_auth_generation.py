from tortoise import migrations
from tortoise.migrations import operations as ops

# The revocation generation of the per-process authentication cache (domain/auth_cache.py): one
# row whose value changes in the very transaction that changes who may do what - a user, a
# device, a token, a workspace membership or a workspace updated or deleted, a membership added.
# Deferred constraint triggers bump it at commit, so the row is locked last, after every other
# lock of the transaction (no lock-order inversion), and once per transaction
# (custody.auth_generation_bumped, a transaction-local setting). A cache entry is used only while
# the generation it was loaded under is still the one a request reads.

_TRACKED = (
    ("users", "UPDATE OR DELETE"),
    ("devices", "UPDATE OR DELETE"),
    ("access_tokens", "UPDATE OR DELETE"),
    ("workspace_members", "INSERT OR UPDATE OR DELETE"),
    ("workspaces", "UPDATE OR DELETE"),
)


class Migration(migrations.Migration):
    dependencies = [('models', '0251_merge')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                "CREATE TABLE auth_generation (id smallint PRIMARY KEY CHECK (id = 1), value bigint NOT NULL)",
                "INSERT INTO auth_generation (id, value) VALUES (1, 1)",
                """
                CREATE FUNCTION custody_bump_auth_generation() RETURNS trigger
                LANGUAGE plpgsql AS $$
                BEGIN
                    IF current_setting('custody.auth_generation_bumped', true) = '1' THEN
                        RETURN NULL;
                    END IF;
                    PERFORM set_config('custody.auth_generation_bumped', '1', true);
                    UPDATE auth_generation SET value = value + 1 WHERE id = 1;
                    RETURN NULL;
                END
                $$;
                """,
                *(
                    f"CREATE CONSTRAINT TRIGGER auth_generation_{table} AFTER {events} ON {table} "
                    "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION custody_bump_auth_generation()"
                    for table, events in _TRACKED
                ),
            ],
            reverse_sql=[
                *(f"DROP TRIGGER auth_generation_{table} ON {table}" for table, _ in _TRACKED),
                "DROP FUNCTION custody_bump_auth_generation()",
                "DROP TABLE auth_generation",
            ],
        ),
    ]
