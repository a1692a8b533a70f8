from tortoise import migrations
from tortoise.migrations import operations as ops

# One live whitelist entry per (workspace, currency, address): deleted entries stay (transactions
# name them), so the uniqueness is partial. domain.whitelist checks first; this is the last line.


class Migration(migrations.Migration):
    dependencies = [('models', '0020_withdrawals')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                """
                CREATE UNIQUE INDEX whitelisted_wallets_live_address
                ON whitelisted_wallets (workspace_id, currency_id, address) WHERE deleted_at IS NULL;
                """,
            ],
            reverse_sql=["DROP INDEX whitelisted_wallets_live_address;"],
        ),
    ]
