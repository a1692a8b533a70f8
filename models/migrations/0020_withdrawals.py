from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.clock import now
from json import dumps, loads
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index
from tortoise.migrations.constraints import UniqueConstraint

class Migration(migrations.Migration):
    dependencies = [('models', '0008_keyset_scheme_no_default')]

    initial = False

    operations = [
        ops.CreateModel(
            name='WhitelistSettings',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.OneToOneField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('one_time_addresses_allowed', fields.BooleanField(default=False, description='Whether a withdrawal may go to an address that is neither internal nor whitelisted.')),
                ('updated_by', fields.UUIDField(null=True)),
            ],
            options={'table': 'whitelist_settings', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='WhitelistedWallet',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('name', fields.CharField(max_length=100)),
                ('currency_id', fields.CharField(description='Registry currency id and its network (domain.currencies).', max_length=40)),
                ('network', fields.CharField(max_length=40)),
                ('address', fields.CharField(description='Normalized for the network (domain.networks adapters).', max_length=100)),
                ('created_by', fields.UUIDField(null=True)),
                ('deleted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('deleted_by', fields.UUIDField(null=True)),
            ],
            options={'table': 'whitelisted_wallets', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'currency_id', 'address']), Index(fields=['workspace_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.AddField(
            model_name='Transaction',
            name='amount_usdt',
            field=fields.CharField(null=True, description='Fiat value of ``amount`` from the price table when the transaction was recorded.', max_length=80),
        ),
        ops.AddField(
            model_name='Transaction',
            name='attempt_key',
            field=fields.CharField(null=True, max_length=100),
        ),
        ops.AddField(
            model_name='Transaction',
            name='attempt_number',
            field=fields.IntField(null=True),
        ),
        ops.AddField(
            model_name='Transaction',
            name='broadcast_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Transaction',
            name='checks',
            field=fields.JSONField(null=True, description='Results of the check stage (domain.withdrawals.checks), one object per check.', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddField(
            model_name='Transaction',
            name='confirmations',
            field=fields.IntField(null=True),
        ),
        ops.AddField(
            model_name='Transaction',
            name='created_by',
            field=fields.UUIDField(null=True, description='The user (person or API user) who created it: the only one who may cancel it.'),
        ),
        ops.AddField(
            model_name='Transaction',
            name='destination_type',
            field=fields.CharField(null=True, description='``internal`` (a wallet of the workspace), ``whitelisted`` or ``one_time``.', max_length=12),
        ),
        ops.AddField(
            model_name='Transaction',
            name='error_message',
            field=fields.TextField(null=True, description="The reason behind ``error_code`` in words (the network's message, the check's reason).", unique=False),
        ),
        ops.AddField(
            model_name='Transaction',
            name='expires_at',
            field=fields.DatetimeField(null=True, description='A withdrawal not signing by then expires (moved by the frozen time on unfreeze).', auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Transaction',
            name='fee_payer_side',
            field=fields.JSONField(null=True, description="Side of the fee-paying wallet when it is not ``from`` (a token transfer's native coin wallet).", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddField(
            model_name='Transaction',
            name='fee_rate',
            field=fields.DecimalField(null=True, description='Account family: the gas price; UTXO family: sat/vB (what the transfer is built with).', max_digits=78, decimal_places=0),
        ),
        ops.AddField(
            model_name='Transaction',
            name='frozen_at',
            field=fields.DatetimeField(null=True, auto_now=False, auto_now_add=False),
        ),
        ops.AddField(
            model_name='Transaction',
            name='frozen_from',
            field=fields.CharField(null=True, description='Frozen: the status to return to on unfreeze, and since when.', max_length=24),
        ),
        ops.AddField(
            model_name='Transaction',
            name='holding',
            field=fields.BooleanField(default=False, description="True while amount and fee limit are in the wallets' ``held`` (released exactly once)."),
        ),
        ops.AddField(
            model_name='Transaction',
            name='request_hash',
            field=fields.CharField(null=True, description='SHA-256 of the request (body and keys) under ``idempotency_key``.', max_length=64),
        ),
        ops.AddField(
            model_name='Transaction',
            name='retry_of',
            field=fields.ForeignKeyField('models.Transaction', source_field='retry_of_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT),
        ),
        ops.AddField(
            model_name='Transaction',
            name='signature',
            field=fields.BinaryField(null=True),
        ),
        ops.AddField(
            model_name='Transaction',
            name='signing_session_id',
            field=fields.UUIDField(null=True, unique=True, description='The one signing session of this withdrawal: never a second one.'),
        ),
        ops.AddField(
            model_name='Transaction',
            name='target_wallet',
            field=fields.ForeignKeyField('models.Wallet', source_field='target_wallet_id', null=True, description='Internal transfer: the workspace wallet credited when the transfer is final.', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT),
        ),
        ops.AddField(
            model_name='Transaction',
            name='transfer',
            field=fields.JSONField(null=True, description='The unsigned transfer body the adapter built (its signing payload is what was signed).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AddField(
            model_name='Transaction',
            name='utxo_intent_key',
            field=fields.CharField(null=True, max_length=100),
        ),
        ops.AddField(
            model_name='Transaction',
            name='whitelisted_wallet',
            field=fields.ForeignKeyField('models.WhitelistedWallet', source_field='whitelisted_wallet_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT),
        ),
        ops.AddIndex(
            model_name='Transaction',
            index=Index(fields=['workspace_id', 'created_at']),
        ),
        ops.AddIndex(
            model_name='Transaction',
            index=Index(fields=['network', 'from_address', 'status']),
        ),
        ops.AddIndex(
            model_name='Transaction',
            index=Index(fields=['direction', 'status']),
        ),
        ops.AddIndex(
            model_name='Transaction',
            index=Index(fields=['workspace_id', 'attempt_key']),
        ),
        ops.AddIndex(
            model_name='Transaction',
            index=Index(fields=['target_wallet_id', 'created_at']),
        ),
        ops.AddConstraint(
            model_name='Transaction',
            constraint=UniqueConstraint(fields=('workspace', 'idempotency_key'), name=None),
        ),
        ops.AddConstraint(
            model_name='Transaction',
            constraint=UniqueConstraint(fields=('workspace', 'utxo_intent_key'), name=None),
        ),
    ]
