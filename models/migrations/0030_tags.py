from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0008_keyset_scheme_no_default')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Tag',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('label', fields.CharField(description='2 to 32 characters, trimmed (domain.tags.LABEL_PATTERN).', max_length=32)),
                ('label_key', fields.CharField(description='``label.casefold()``: uniqueness and order are case-insensitive.', max_length=64)),
                ('description', fields.CharField(null=True, max_length=255)),
                ('color', fields.CharField(null=True, description='``#rrggbb``, lower case.', max_length=7)),
                ('is_protected', fields.BooleanField(default=False)),
            ],
            options={'table': 'tags', 'app': 'models', 'unique_together': (('workspace_id', 'label_key'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='VaultTag',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('vault', fields.ForeignKeyField('models.Vault', source_field='vault_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('tag', fields.ForeignKeyField('models.Tag', source_field='tag_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'vault_tags', 'app': 'models', 'unique_together': (('vault_id', 'tag_id'),), 'indexes': [Index(fields=['tag_id', 'created_at', 'vault_id'])], 'pk_attr': 'id', 'table_description': 'A tag on a vault; ``created_at`` is when it was attached (the newest show in tag lists).'},
            bases=['Model'],
        ),
    ]
