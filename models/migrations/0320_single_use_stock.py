from uuid import uuid4

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops

from core.clock import now

# The single-use stock (domain/signing/stock.py): FROST round-one nonces made ahead of time and,
# later, ECDSA presignatures. The CHECK makes the state rule the database's own: an item that
# left `available` keeps its session forever, and only `available`/`taken` items keep a secret.
# Takers scan available items of one (kind, holder, key set) oldest first, hence the partial
# index; signers find their session's item by session.


class Migration(migrations.Migration):
    dependencies = [('models', '0251_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='StockItem',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('kind', fields.CharField(description='What the item is and which scheme uses it, e.g. ``frost-nonce:FROST-ED25519-SHA512-v1``.', max_length=80)),
                ('key_set', fields.ForeignKeyField('models.KeySet', source_field='key_set_id', null=True, description='The key set it was made for; null: usable with any key set of its kind (FROST nonces).', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('holder', fields.CharField(description='Who can open ``sealed``: one participant ("1") or a signer pair ("1+2").', max_length=20)),
                ('public', fields.BinaryField(null=True, description='Public part, readable by the coordinator (e.g. the hiding and binding commitments).')),
                ('sealed', fields.BinaryField(null=True, description="Secret part, sealed with the holder's key; wiped (null) once used or discarded.")),
                ('state', fields.CharField(default='available', max_length=10)),
                ('session_id', fields.UUIDField(null=True, description='The one session that took it (never changes once set).')),
                ('taken_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('used_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'single_use_stock', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One sealed single-use item of a holder (a signer, or a signer pair) for a kind of use.'},
            bases=['Model'],
        ),
        ops.RunSQL(
            [
                """
                ALTER TABLE single_use_stock ADD CONSTRAINT single_use_stock_states CHECK (
                    (state = 'available' AND session_id IS NULL AND sealed IS NOT NULL)
                    OR (state = 'taken' AND session_id IS NOT NULL AND sealed IS NOT NULL)
                    OR (state = 'used' AND session_id IS NOT NULL AND sealed IS NULL)
                    OR (state = 'discarded' AND sealed IS NULL)
                );
                """,
                """
                CREATE INDEX single_use_stock_available
                ON single_use_stock (kind, holder, key_set_id, created_at) WHERE state = 'available';
                """,
                "CREATE INDEX single_use_stock_session ON single_use_stock (session_id) WHERE session_id IS NOT NULL;",
            ],
            reverse_sql=[
                "DROP INDEX single_use_stock_session;",
                "DROP INDEX single_use_stock_available;",
                "ALTER TABLE single_use_stock DROP CONSTRAINT single_use_stock_states;",
            ],
        ),
    ]
