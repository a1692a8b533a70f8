import functools
from json import dumps, loads
from uuid import uuid4

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.indexes import Index
from tortoise.migrations import operations as ops

from core.clock import now


class Migration(migrations.Migration):
    dependencies = [('models', '0003_vaults')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ChainWatchState',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('network', fields.CharField(unique=True, max_length=40)),
                ('scanned_height', fields.BigIntField(default=0)),
            ],
            options={'table': 'chain_watch_states', 'app': 'models', 'pk_attr': 'id', 'table_description': '``scanned_height``: every block up to it has been turned into deposits (row locked per scan).'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='ChangeLog',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.OneToOneField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('position', fields.BigIntField(default=0)),
                ('min_cursor', fields.BigIntField(default=0)),
                ('compacted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'transaction_change_logs', 'app': 'models', 'pk_attr': 'id', 'table_description': "A workspace's change-log counter: ``position`` is the newest allocated position,"},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='DevnetAccount',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('network', fields.CharField(max_length=40)),
                ('address', fields.CharField(max_length=100)),
                ('nonce', fields.BigIntField(default=0)),
            ],
            options={'table': 'devnet_accounts', 'app': 'models', 'unique_together': (('network', 'address'),), 'pk_attr': 'id', 'table_description': 'Account family: the next nonce of an address.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DevnetBalance',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('network', fields.CharField(max_length=40)),
                ('address', fields.CharField(max_length=100)),
                ('asset', fields.CharField(default='', max_length=100)),
                ('balance', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
            ],
            options={'table': 'devnet_balances', 'app': 'models', 'unique_together': (('network', 'address', 'asset'),), 'pk_attr': 'id', 'table_description': 'Account family: the confirmed balance of an address in one asset ("" = native coin).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DevnetBlock',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('network', fields.CharField(max_length=40)),
                ('height', fields.BigIntField()),
                ('hash', fields.CharField(max_length=66)),
                ('parent_hash', fields.CharField(max_length=66)),
                ('produced_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('tx_count', fields.IntField(default=0)),
            ],
            options={'table': 'devnet_blocks', 'app': 'models', 'unique_together': (('network', 'height'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DevnetChain',
            fields=[
                ('network', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=40)),
                ('height', fields.BigIntField(default=0)),
                ('head_hash', fields.CharField(default='0000000000000000000000000000000000000000000000000000000000000000', max_length=66)),
                ('last_nonempty_height', fields.BigIntField(default=0, description='Height of the newest block that carried transactions (drives confirmation-only blocks).')),
            ],
            options={'table': 'devnet_chains', 'app': 'models', 'pk_attr': 'network', 'table_description': 'The head of one devnet network (one row per network; locked while a block is produced).'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DevnetTransaction',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('network', fields.CharField(max_length=40)),
                ('tx_hash', fields.CharField(max_length=80)),
                ('kind', fields.CharField(description='``transfer`` (signed) or ``faucet`` (credits from nowhere, development only).', max_length=10)),
                ('status', fields.CharField(default='pending', max_length=10)),
                ('from_address', fields.CharField(max_length=100)),
                ('to_address', fields.CharField(description='Account family: the recipient; UTXO family: the first non-change recipient.', max_length=100)),
                ('asset', fields.CharField(default='', description='Token contract on an account network; "" for the native coin.', max_length=100)),
                ('amount', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('fee', fields.DecimalField(default=0, description='Account family: gas_used x gas_price once mined (gas_limit x gas_price while pending);', max_digits=78, decimal_places=0)),
                ('nonce', fields.BigIntField(null=True)),
                ('gas_limit', fields.BigIntField(null=True)),
                ('gas_price', fields.DecimalField(null=True, max_digits=78, decimal_places=0)),
                ('gas_used', fields.BigIntField(null=True)),
                ('body', fields.JSONField(default=dict, description='The signed body exactly as submitted (family specific, see domain.networks.devnet).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('signature', fields.BinaryField(null=True)),
                ('block_height', fields.BigIntField(null=True)),
                ('block_index', fields.IntField(null=True)),
                ('error', fields.CharField(null=True, max_length=200)),
                ('submitted_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'devnet_transactions', 'app': 'models', 'unique_together': (('network', 'tx_hash'),), 'indexes': [Index(fields=['network', 'status']), Index(fields=['network', 'block_height'])], 'pk_attr': 'id', 'table_description': 'A submitted transaction: ``pending`` in the mempool, then ``confirmed`` or ``failed`` in a'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='DevnetUtxo',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('network', fields.CharField(max_length=40)),
                ('tx_hash', fields.CharField(max_length=80)),
                ('output_index', fields.IntField()),
                ('address', fields.CharField(max_length=100)),
                ('amount', fields.DecimalField(max_digits=78, decimal_places=0)),
                ('created_height', fields.BigIntField()),
                ('spent_by', fields.CharField(null=True, max_length=80)),
                ('spent_height', fields.BigIntField(null=True)),
            ],
            options={'table': 'devnet_utxos', 'app': 'models', 'unique_together': (('network', 'tx_hash', 'output_index'),), 'indexes': [Index(fields=['network', 'address'])], 'pk_attr': 'id', 'table_description': 'UTXO family: one transaction output.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WalletAddress',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('vault', fields.ForeignKeyField('models.Vault', source_field='vault_id', db_constraint=True, to_field='id', related_name='addresses', on_delete=OnDelete.RESTRICT)),
                ('network', fields.CharField(description='Registry network id (domain.currencies).', max_length=40)),
                ('address', fields.CharField(max_length=100)),
                ('public_key', fields.BinaryField(description="The vault's group public key the address is derived from (32 bytes).")),
                ('balance_version', fields.BigIntField(default=0, description='Grows by one with every balance change on this address (never reused, never reset).')),
            ],
            options={'table': 'wallet_addresses', 'app': 'models', 'unique_together': (('network', 'address'), ('vault', 'network')), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='Wallet',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('vault', fields.ForeignKeyField('models.Vault', source_field='vault_id', db_constraint=True, to_field='id', related_name='wallets', on_delete=OnDelete.RESTRICT)),
                ('address', fields.ForeignKeyField('models.WalletAddress', source_field='address_id', db_constraint=True, to_field='id', related_name='wallets', on_delete=OnDelete.RESTRICT)),
                ('currency_id', fields.CharField(description='Registry currency id (domain.currencies).', max_length=40)),
                ('status', fields.CharField(default='active', max_length=12)),
                ('total', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('frozen', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('held', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('block_height', fields.BigIntField(default=0, description='Height of the newest block reflected in the balance.')),
            ],
            options={'table': 'wallets', 'app': 'models', 'unique_together': (('vault', 'currency_id'),), 'indexes': [Index(fields=['workspace_id', 'currency_id']), Index(fields=['workspace_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='Transaction',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('vault', fields.ForeignKeyField('models.Vault', source_field='vault_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('wallet', fields.ForeignKeyField('models.Wallet', source_field='wallet_id', description='The workspace wallet the transaction moves value in or out of.', db_constraint=True, to_field='id', related_name='transactions', on_delete=OnDelete.RESTRICT)),
                ('direction', fields.CharField(description='``deposit`` (incoming) or ``withdrawal`` (outgoing).', max_length=10)),
                ('status', fields.CharField(max_length=24)),
                ('currency_id', fields.CharField(max_length=40)),
                ('network', fields.CharField(max_length=40)),
                ('amount', fields.DecimalField(max_digits=78, decimal_places=0)),
                ('fee', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('fee_limit', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('fee_currency_id', fields.CharField(max_length=40)),
                ('from_address', fields.CharField(null=True, max_length=100)),
                ('to_address', fields.CharField(null=True, max_length=100)),
                ('from_side', fields.JSONField(default=dict, description='Transaction sides as written with the last change (absolute balances after it).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('to_side', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('tx_hash', fields.CharField(null=True, db_index=True, max_length=100)),
                ('block_height', fields.BigIntField(null=True)),
                ('block_time', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('balance_version', fields.BigIntField(null=True, description="balance_version of the workspace address after this transaction's last balance change.")),
                ('seq', fields.BigIntField(null=True, description='Change-log position of the last change; null once compacted out of the log.')),
                ('chain_ref', fields.CharField(null=True, unique=True, max_length=255)),
                ('idempotency_key', fields.CharField(null=True, max_length=100)),
                ('error_code', fields.CharField(null=True, max_length=64)),
            ],
            options={'table': 'transactions', 'app': 'models', 'unique_together': (('workspace', 'seq'),), 'indexes': [Index(fields=['wallet_id', 'created_at'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
    ]
