import functools
from json import dumps, loads
from uuid import uuid4

from tortoise import fields, migrations
from tortoise.fields.base import OnDelete
from tortoise.migrations import operations as ops

from core.clock import now


class Migration(migrations.Migration):
    initial = True

    operations = [
        ops.CreateModel(
            name='AuditEntry',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('workspace_id', fields.UUIDField(null=True, db_index=True)),
                ('company_id', fields.UUIDField(null=True)),
                ('actor_id', fields.UUIDField(null=True, description='Who did it: a user id, or null for the system (actors, scheduler).')),
                ('actor_type', fields.CharField(max_length=20)),
                ('action', fields.CharField(max_length=64)),
                ('object_type', fields.CharField(max_length=40)),
                ('object_id', fields.CharField(null=True, max_length=64)),
                ('details', fields.JSONField(default=dict, encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('request_id', fields.CharField(null=True, max_length=64)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'audit_log', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='AuthNonce',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('client_id', fields.UUIDField()),
                ('nonce', fields.CharField(max_length=128)),
                ('expires_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'auth_nonces', 'app': 'models', 'unique_together': (('client_id', 'nonce'),), 'pk_attr': 'id', 'table_description': 'A nonce seen in a signed token request; the unique key makes a replay fail.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Command',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('actor_name', fields.CharField(db_index=True, description='The dramatiq actor ("domain.verb") that carries the command out.', max_length=100)),
                ('payload', fields.JSONField(default=dict, description="Keyword arguments of the actor's handler besides ``command_id``; JSON only.", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('workspace_id', fields.UUIDField(null=True)),
                ('status', fields.CharField(default='pending', db_index=True, description='pending -> running -> done | failed.', max_length=10)),
                ('run_at', fields.DatetimeField(default=now, description='Earliest moment the command may run (a delayed command); the relay respects it.', auto_now=False, auto_now_add=False)),
                ('enqueued_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('enqueue_count', fields.IntField(default=0)),
                ('attempts', fields.IntField(default=0)),
                ('started_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_error', fields.TextField(null=True, unique=False)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'outbox_commands', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='Company',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('name', fields.CharField(max_length=200)),
                ('email', fields.CharField(max_length=320)),
            ],
            options={'table': 'companies', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='User',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('user_type', fields.CharField(description='"user" (a person, may pair a mobile device) or "api_user" (machine user with a key pair).', max_length=10)),
                ('email', fields.CharField(null=True, max_length=320)),
                ('first_name', fields.CharField(null=True, max_length=100)),
                ('last_name', fields.CharField(null=True, max_length=100)),
                ('api_user_name', fields.CharField(null=True, max_length=100)),
                ('platform_role', fields.CharField(null=True, description='PLATFORM_ADMIN or PLATFORM_SUPPORT for platform staff, otherwise null.', max_length=20)),
                ('public_key', fields.BinaryField(null=True, description='Ed25519 public key (32 bytes) of an API user; people authenticate through devices.')),
                ('status', fields.CharField(default='active', description='"active" or "removed"; a removed user\'s tokens stop working at once.', max_length=10)),
            ],
            options={'table': 'users', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='CompanyApplication',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('company_name', fields.CharField(max_length=200)),
                ('country', fields.CharField(max_length=100)),
                ('email', fields.CharField(max_length=320)),
                ('first_name', fields.CharField(max_length=100)),
                ('last_name', fields.CharField(max_length=100)),
                ('job_title', fields.CharField(max_length=100)),
                ('status', fields.CharField(default='submitted', description='submitted -> in_review (after the intake actor has run).', max_length=20)),
                ('submitted_by', fields.ForeignKeyField('models.User', source_field='submitted_by_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
            ],
            options={'table': 'company_applications', 'app': 'models', 'pk_attr': 'id', 'table_description': "A prospective client's request to be onboarded; processed by the intake actor."},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='Workspace',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('company', fields.ForeignKeyField('models.Company', source_field='company_id', db_constraint=True, to_field='id', related_name='workspaces', on_delete=OnDelete.RESTRICT)),
                ('name', fields.CharField(max_length=200)),
                ('network_type', fields.CharField(description='"mainnet" or "testnet": the workspace sees only currencies of its own network type.', max_length=10)),
            ],
            options={'table': 'workspaces', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='Device',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='devices', on_delete=OnDelete.CASCADE)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name='devices', on_delete=OnDelete.CASCADE)),
                ('name', fields.CharField(max_length=100)),
                ('public_key', fields.BinaryField()),
                ('fingerprint', fields.CharField(max_length=39)),
                ('status', fields.CharField(default='pending_confirmation', description='pending_confirmation -> active (owner confirmed the fingerprint) -> revoked.', max_length=25)),
                ('confirmed_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('confirmed_by', fields.ForeignKeyField('models.User', source_field='confirmed_by_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
            ],
            options={'table': 'devices', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A mobile device or headless co-signer paired to one user in one workspace.'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='AccessToken',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('token_hash', fields.CharField(unique=True, max_length=64)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='tokens', on_delete=OnDelete.CASCADE)),
                ('device', fields.ForeignKeyField('models.Device', source_field='device_id', null=True, db_constraint=True, to_field='id', related_name='tokens', on_delete=OnDelete.CASCADE)),
                ('client_type', fields.CharField(description='"user" (API user key) or "device" (paired mobile device / co-signer).', max_length=10)),
                ('issued_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('expires_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=False)),
                ('revoked_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'access_tokens', 'app': 'models', 'pk_attr': 'id', 'table_description': "An opaque bearer token; only its SHA-256 is stored. ``id`` is the token's ``jti``."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='PairingSession',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('token_hash', fields.CharField(unique=True, max_length=64)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('device', fields.ForeignKeyField('models.Device', source_field='device_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
            ],
            options={'table': 'pairing_sessions', 'app': 'models', 'pk_attr': 'id', 'table_description': 'A short-lived pairing token (hashed) that lets one device register its public key.'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='WorkspaceMember',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name='members', on_delete=OnDelete.CASCADE)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', db_constraint=True, to_field='id', related_name='memberships', on_delete=OnDelete.CASCADE)),
                ('role', fields.CharField(max_length=20)),
                ('role_status', fields.CharField(default='ROLE_STATUS_ACTIVE', max_length=30)),
            ],
            options={'table': 'workspace_members', 'app': 'models', 'unique_together': (('workspace', 'user'),), 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
    ]
