from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0170_owner_enrollment')]

    initial = False

    operations = [
        ops.CreateModel(
            name='CosignerDesignation',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.OneToOneField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('device', fields.ForeignKeyField('models.Device', source_field='device_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('designated_by', fields.ForeignKeyField('models.User', source_field='designated_by_id', null=True, description='The owner who designated it (null: the operator, at bootstrap).', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
            ],
            options={'table': 'cosigner_designations', 'app': 'models', 'pk_attr': 'id', 'table_description': "Who may take the co-signer seat of the workspace's key sets: an API user (``device`` null,"},
            bases=['TimestampedModel'],
        ),
    ]
