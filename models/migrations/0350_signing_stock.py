from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.clock import now
from json import dumps, loads
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0251_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='StockItem',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('key_set', fields.ForeignKeyField('models.KeySet', source_field='key_set_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('kind', fields.CharField(max_length=40)),
                ('status', fields.CharField(default='filling', max_length=10)),
                ('participants', fields.JSONField(description='The participants that each hold a part (the item is ready once all of them stored theirs).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('public', fields.JSONField(null=True, description="What the parts agree on publicly (an ECDSA presignature's big_r).", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('session', fields.OneToOneField('models.SigningSession', source_field='session_id', null=True, description='The signing session that took the item (at most one, ever).', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('taken_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('failure_reason', fields.TextField(null=True, unique=False)),
            ],
            options={'table': 'signing_stock_items', 'app': 'models', 'indexes': [Index(fields=['key_set_id', 'kind', 'status'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='StockPart',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('item', fields.ForeignKeyField('models.StockItem', source_field='item_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('participant', fields.SmallIntField()),
                ('sealed', fields.BinaryField()),
            ],
            options={'table': 'signing_stock_parts', 'app': 'models', 'unique_together': (('item', 'participant'),), 'pk_attr': 'id', 'table_description': "One participant's sealed part of an item; deleted when it is used."},
            bases=['TimestampedModel'],
        ),
    ]
