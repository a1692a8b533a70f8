from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.clock import now
from json import dumps, loads
from uuid import uuid4
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0256_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='WithdrawalReplacement',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace_id', fields.UUIDField()),
                ('transaction_id', fields.UUIDField(db_index=True)),
                ('number', fields.IntField(description='1, 2, ... per withdrawal, in order.')),
                ('state', fields.CharField(description='signing | signed | broadcast | refused | deferred | capped | abandoned (see the module).', max_length=20)),
                ('reason_code', fields.CharField(null=True, max_length=64)),
                ('reason', fields.TextField(null=True, unique=False)),
                ('replaced', fields.JSONField(null=True, description="The withdrawal's attempt this one replaces: tx_hash, transfer, signature (hex), signing", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('transfer', fields.JSONField(null=True, description="The replacement's unsigned transfer (the adapter's body) and its fee limit.", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('fee_limit', fields.DecimalField(null=True, max_digits=78, decimal_places=0)),
                ('previous_fee_limit', fields.DecimalField(null=True, description="The withdrawal's fee limit before this replacement raised it (given back when it is refused).", max_digits=78, decimal_places=0)),
                ('signing_session_id', fields.UUIDField(null=True, unique=True)),
                ('signature', fields.BinaryField(null=True)),
                ('tx_hash', fields.CharField(null=True, max_length=100)),
                ('broadcast_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'withdrawal_replacements', 'app': 'models', 'unique_together': (('transaction_id', 'number'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
    ]
