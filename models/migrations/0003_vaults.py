from uuid import uuid4

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops

from core.clock import now


class Migration(migrations.Migration):
    dependencies = [('models', '0002_audit_append_only')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Vault',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name='vaults', on_delete=OnDelete.RESTRICT)),
                ('name', fields.CharField(max_length=100)),
                ('is_frozen', fields.BooleanField(default=False)),
            ],
            options={'table': 'vaults', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
    ]
