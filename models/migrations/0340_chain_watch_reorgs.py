from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.clock import now
from json import dumps, loads
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0251_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ChainAddressCursor',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('network', fields.CharField(max_length=40)),
                ('account', fields.CharField(description='The account whose signatures are read: the wallet address, or one of its token accounts.', max_length=100)),
                ('owner', fields.CharField(description='The wallet address the account belongs to (deposits are credited to it).', max_length=100)),
                ('last_signature', fields.CharField(null=True, description='The newest final signature read (``until`` of the next read); null: nothing read yet.', max_length=100)),
                ('last_slot', fields.BigIntField(null=True)),
                ('checked_height', fields.BigIntField(default=0, description='The final height the account was last read up to.')),
            ],
            options={'table': 'chain_address_cursors', 'app': 'models', 'unique_together': (('network', 'account'),), 'indexes': [Index(fields=['network', 'checked_height'])], 'pk_attr': 'id', 'table_description': "Where the watcher is in one account's history (an address-watched network)."},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='ChainWatchBlock',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('network', fields.CharField(max_length=40)),
                ('height', fields.BigIntField()),
                ('hash', fields.CharField(max_length=100)),
                ('parent_hash', fields.CharField(max_length=100)),
            ],
            options={'table': 'chain_watch_blocks', 'app': 'models', 'unique_together': (('network', 'height'),), 'pk_attr': 'id', 'table_description': 'A block the watcher read: its height and hash (a recent window per network).'},
            bases=['TimestampedModel'],
        ),
        ops.AddField(
            model_name='ChainWatchState',
            name='halt_details',
            field=fields.JSONField(null=True, description='Why, for the operator: the height, the hash read then, the hash the chain has now.', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddField(
            model_name='ChainWatchState',
            name='halted_at',
            field=fields.DatetimeField(null=True, description='When the watcher stopped: the chain replaced a block it had credited as final.', auto_now=False, auto_now_add=False),
        ),
    ]
