from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index

# The gas station (issue 11, items 5-7): its station, per-asset configurations, autofuel flags and
# refuels, and the withdrawal's awaiting_gas flag. At most one live refuel per target address and
# asset: a partial unique index (domain.gas_station.refuels also takes an advisory lock first).


class Migration(migrations.Migration):
    dependencies = [('models', '0061_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='GasStation',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', unique=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('vault', fields.ForeignKeyField('models.Vault', source_field='vault_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
            ],
            options={'table': 'gas_stations', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='GasStationAsset',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('gas_station', fields.ForeignKeyField('models.GasStation', source_field='gas_station_id', db_constraint=True, to_field='id', related_name='assets', on_delete=OnDelete.CASCADE)),
                ('currency_id', fields.CharField(description='The base asset (the native coin of a gas-model network).', max_length=40)),
                ('threshold', fields.DecimalField(null=True, max_digits=78, decimal_places=0)),
                ('cap', fields.DecimalField(null=True, max_digits=78, decimal_places=0)),
                ('max_gas_price', fields.DecimalField(default=-1, description='-1: no limit; 0: no fee allowed; n: a refuel whose network fee is above n waits.', max_digits=78, decimal_places=0)),
                ('daily_budget', fields.DecimalField(null=True, description='Most the station sends of this asset per rolling 24 hours (NULL: no budget).', max_digits=78, decimal_places=0)),
                ('is_default', fields.BooleanField(default=True)),
                ('low_balance_since', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('budget_reached_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'gas_station_assets', 'app': 'models', 'unique_together': (('gas_station_id', 'currency_id'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='Refuel',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('gas_station', fields.ForeignKeyField('models.GasStation', source_field='gas_station_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('currency_id', fields.CharField(max_length=40)),
                ('network', fields.CharField(max_length=40)),
                ('target_vault', fields.ForeignKeyField('models.Vault', source_field='target_vault_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('target_address', fields.CharField(max_length=100)),
                ('status', fields.CharField(max_length=12)),
                ('amount', fields.DecimalField(description='What was (or will be) sent: cap minus the balance when the refuel was decided.', max_digits=78, decimal_places=0)),
                ('transaction', fields.ForeignKeyField('models.Transaction', source_field='transaction_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('reason', fields.CharField(null=True, max_length=200)),
                ('retry_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'gas_station_refuels', 'app': 'models', 'indexes': [Index(fields=['gas_station_id', 'currency_id', 'created_at']), Index(fields=['status', 'retry_at'])], 'pk_attr': 'id', 'table_description': 'One refuel: ``held_back`` (the network fee is above max_gas_price; retried by the'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='VaultAutofuel',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('vault', fields.ForeignKeyField('models.Vault', source_field='vault_id', unique=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('enabled', fields.BooleanField(default=False)),
            ],
            options={'table': 'vault_autofuel', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.AddField(
            model_name='Transaction',
            name='awaiting_gas',
            field=fields.BooleanField(default=False, description='A token transfer holding its amount but not yet its fee: autofuel is refuelling its address'),
        ),
        ops.RunSQL(
            [
                """
                CREATE UNIQUE INDEX gas_station_refuels_one_live
                ON gas_station_refuels (network, target_address, currency_id)
                WHERE status IN ('held_back', 'in_flight');
                """,
            ],
            reverse_sql=["DROP INDEX gas_station_refuels_one_live;"],
        ),
    ]
