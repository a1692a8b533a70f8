from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index

# Policies (Transfer and AML) published as versions, the tags they refer to, their windows'
# entries and running buckets, and transaction approvals with their votes (docs/policies.md).


class Migration(migrations.Migration):
    dependencies = [('models', '0061_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='PolicyVersion',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('policy_type', fields.CharField(max_length=16)),
                ('version', fields.IntField()),
                ('rules', fields.JSONField(default=list)),
                ('no_match_action', fields.CharField(default='block', max_length=16)),
                ('published_by', fields.UUIDField(null=True)),
                ('published_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('copied_from_version', fields.IntField(null=True)),
            ],
            options={'table': 'policy_versions', 'app': 'models', 'unique_together': (('workspace_id', 'policy_type', 'version'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='PolicyTagReference',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('policy_type', fields.CharField(max_length=16)),
                ('tag', fields.ForeignKeyField('models.Tag', source_field='tag_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('rule_id', fields.CharField(max_length=64)),
                ('rule_name', fields.CharField(null=True, max_length=100)),
            ],
            options={'table': 'policy_tag_references', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'tag_id']), Index(fields=['workspace_id', 'policy_type'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PolicyWindowEntry',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('window_key', fields.CharField(max_length=200)),
                ('transaction', fields.ForeignKeyField('models.Transaction', source_field='transaction_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('amount', fields.DecimalField(max_digits=78, decimal_places=0)),
                ('amount_usd', fields.DecimalField(null=True, max_digits=40, decimal_places=8)),
                ('at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('bucket', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('released_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'policy_window_entries', 'app': 'models', 'unique_together': (('window_key', 'transaction_id'),), 'indexes': [Index(fields=['window_key', 'at']), Index(fields=['transaction_id'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PolicyWindowBucket',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('window_key', fields.CharField(max_length=200)),
                ('bucket', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('count', fields.IntField(default=0)),
                ('amount', fields.DecimalField(default=0, max_digits=78, decimal_places=0)),
                ('amount_usd', fields.DecimalField(default=0, max_digits=40, decimal_places=8)),
            ],
            options={'table': 'policy_window_buckets', 'app': 'models', 'unique_together': (('window_key', 'bucket'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='TransactionApproval',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('transaction', fields.OneToOneField('models.Transaction', source_field='transaction_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('status', fields.CharField(default='pending', max_length=12)),
                ('requirements', fields.JSONField(default=list)),
                ('approver_ids', fields.JSONField(default=list)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('decided_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'transaction_approvals', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'status']), Index(fields=['status', 'expires_at'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='TransactionApprovalVote',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('approval', fields.ForeignKeyField('models.TransactionApproval', source_field='approval_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('user_id', fields.UUIDField()),
                ('device_id', fields.UUIDField()),
                ('vote', fields.CharField(max_length=8)),
                ('reason', fields.CharField(null=True, max_length=500)),
            ],
            options={'table': 'transaction_approval_votes', 'app': 'models', 'unique_together': (('approval_id', 'user_id'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
    ]
