from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from core.clock import now
from json import dumps, loads
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0061_merge')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ChangeApprovalEvent',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('workspace_id', fields.UUIDField(db_index=True)),
                ('request_id', fields.UUIDField()),
                ('event', fields.CharField(max_length=60)),
                ('recipients', fields.JSONField(default=list, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('data', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'change_approval_events', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A progress event of a request, read by the WebSocket streams in ``id`` order.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='ChangeRequest',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('action', fields.CharField(max_length=40)),
                ('operation', fields.CharField(null=True, max_length=40)),
                ('mode', fields.CharField(max_length=40)),
                ('payload', fields.JSONField(default=dict, description='What will be changed, exactly as the gated service received it (JSON).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('display', fields.JSONField(null=True, description='Names of what the payload refers to, captured at creation (null: no snapshot).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('fingerprint', fields.CharField(description='SHA-256 of action + canonical payload: the initiator repeating the change finds this request.', max_length=64)),
                ('initiator', fields.ForeignKeyField('models.User', source_field='initiator_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('status', fields.CharField(default='PENDING', db_index=True, description='PENDING, APPROVED, EXECUTED, FAILED, REJECTED, EXPIRED, CANCELLED.', max_length=12)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('failure_code', fields.CharField(null=True, max_length=64)),
                ('failure_reason', fields.TextField(null=True, unique=False)),
                ('decided_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('executed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'change_requests', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'status', 'created_at']), Index(fields=['initiator_id', 'fingerprint', 'status'])], 'pk_attr': 'id', 'table_description': 'A gated change waiting for (or past) its confirmations.'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='ApproverSet',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('request', fields.ForeignKeyField('models.ChangeRequest', source_field='request_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('external_id', fields.CharField(description='"owner", "admin_quorum" or "group:<group id>".', max_length=60)),
                ('kind', fields.CharField(max_length=20)),
                ('threshold', fields.IntField()),
                ('status', fields.CharField(default='PENDING', description='PENDING, APPROVED, REJECTED, CANCELLED, EXPIRED.', max_length=12)),
                ('position', fields.IntField(default=0)),
            ],
            options={'table': 'change_request_sets', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One set of approvers of a request (owner, administrators or a group) with its threshold.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Group',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=100)),
                ('threshold', fields.IntField(default=1, description='How many members confirm a request in group mode (1 or more).')),
                ('deleted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'groups', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='ActionRule',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('action', fields.CharField(max_length=40)),
                ('enabled', fields.BooleanField(default=False)),
                ('mode', fields.CharField(max_length=40)),
                ('group', fields.ForeignKeyField('models.Group', source_field='group_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
                ('owner_confirmation', fields.BooleanField(default=False, description='The owner confirms on top of the administrator quorum or the group.')),
            ],
            options={'table': 'quorum_action_rules', 'app': 'models', 'unique_together': (('workspace_id', 'action'),), 'pk_attr': 'id', 'table_description': 'The rule of one gated action in one workspace (no row: off, the default).'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='GroupMember',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('group', fields.ForeignKeyField('models.Group', source_field='group_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'group_members', 'app': 'models', 'unique_together': (('group_id', 'user_id'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PushNotification',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace_id', fields.UUIDField(db_index=True)),
                ('request_id', fields.UUIDField(null=True)),
                ('user_id', fields.UUIDField()),
                ('device_id', fields.UUIDField()),
                ('provider', fields.CharField(max_length=30)),
                ('event', fields.CharField(max_length=60)),
                ('title', fields.CharField(max_length=200)),
                ('body', fields.TextField(unique=False)),
                ('data', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'push_notifications', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A push notification handed to the provider (the database provider keeps it here).'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='QuorumSettings',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', unique=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('admin_threshold', fields.IntField(default=1)),
            ],
            options={'table': 'quorum_settings', 'app': 'models', 'pk_attr': 'id', 'table_description': "The workspace's administrator threshold (one for every rule in ADMIN_QUORUM mode)."},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='SetApprover',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('approver_set', fields.ForeignKeyField('models.ApproverSet', source_field='approver_set_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('request', fields.ForeignKeyField('models.ChangeRequest', source_field='request_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('status', fields.CharField(default='PENDING', description='PENDING, APPROVED, REJECTED, CANCELLED, EXPIRED.', max_length=12)),
                ('device_id', fields.UUIDField(null=True)),
                ('voted_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'change_request_approvers', 'app': 'models', 'unique_together': (('approver_set_id', 'user_id'),), 'pk_attr': 'id', 'table_description': 'One approver of one set, and their vote.'},
            bases=['Model'],
        ),
    ]
