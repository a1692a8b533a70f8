from tortoise import migrations
from tortoise.migrations import operations as ops

# Spent single-use stock rows (used or discarded: their sealed secrets already wiped) are purged
# by the presignature sweep once older than domain.signing.stock.SPENT_RETENTION. This partial
# index lets each purge find the oldest ones without reading the available and taken items.


class Migration(migrations.Migration):
    dependencies = [('models', '0470_commit_horizon_checked_twice')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                "CREATE INDEX single_use_stock_spent ON single_use_stock (used_at) "
                "WHERE state IN ('used', 'discarded');",
            ],
            reverse_sql=["DROP INDEX single_use_stock_spent;"],
        ),
    ]
