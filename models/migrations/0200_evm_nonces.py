from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.clock import now
from json import dumps, loads
from uuid import uuid4
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0135_commit_order')]

    initial = False

    operations = [
        ops.CreateModel(
            name='EvmAccount',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('network', fields.CharField(max_length=40)),
                ('address', fields.CharField(max_length=42)),
                ('next_nonce', fields.BigIntField(default=0, description="The first nonce never handed out (the node's count may be behind it while ours are pending).")),
            ],
            options={'table': 'evm_accounts', 'app': 'models', 'unique_together': (('network', 'address'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='EvmNonce',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('network', fields.CharField(max_length=40)),
                ('address', fields.CharField(max_length=42)),
                ('nonce', fields.BigIntField()),
                ('intent_key', fields.CharField(null=True, description='The payment holding it; null once released (free to hand out again).', max_length=100)),
                ('max_fee_per_gas', fields.DecimalField(null=True, description="The last attempt's fees (wei per gas): a replacement raises both by 10%.", max_digits=78, decimal_places=0)),
                ('max_priority_fee_per_gas', fields.DecimalField(null=True, max_digits=78, decimal_places=0)),
                ('tx_hashes', fields.JSONField(default=list, description='Every signed transaction submitted with this nonce, oldest first.', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'evm_nonces', 'app': 'models', 'unique_together': (('network', 'address', 'nonce'), ('network', 'intent_key')), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
    ]
