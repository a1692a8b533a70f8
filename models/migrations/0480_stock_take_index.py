from tortoise import migrations
from tortoise.migrations import operations as ops

# domain.signing.stock.take picks the oldest available items of a holder. For the items usable
# with any key set (FROST nonces: ``key_set_id IS NULL``) the index single_use_stock_available
# could not give them in created_at order: PostgreSQL does not treat ``IS NULL`` on an index
# column as fixing it, so each take read every available item of the holder (a stock of up to
# a thousand) and sorted them. This partial index, with no key set column, gives the oldest one
# at once (issue 20 point 5; bench/signing_pools.py prints the statement's time). Items made
# for a key set (ECDSA presignatures, ``key_set_id = $n``) still use single_use_stock_available.


class Migration(migrations.Migration):
    dependencies = [('models', '0475_spent_stock_purge_index')]

    initial = False

    operations = [
        ops.RunSQL(
            [
                "CREATE INDEX single_use_stock_available_any_key_set ON single_use_stock (kind, holder, created_at) "
                "WHERE state = 'available' AND key_set_id IS NULL;",
            ],
            reverse_sql=["DROP INDEX single_use_stock_available_any_key_set;"],
        ),
    ]
