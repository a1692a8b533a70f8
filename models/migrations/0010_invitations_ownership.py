from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields

# One owner per workspace, one pending ownership transfer per workspace and one pending
# invitation per (workspace, email): partial unique indexes, so that two concurrent requests
# cannot both succeed. Workspaces that got a second OWNER through the role escalation this
# migration's release closes keep their first owner; the later ones become ADMIN (audited).


class Migration(migrations.Migration):
    dependencies = [('models', '0008_keyset_scheme_no_default')]

    initial = False

    operations = [
        ops.CreateModel(
            name='Invitation',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('email', fields.CharField(max_length=320)),
                ('role', fields.CharField(max_length=20)),
                ('first_name', fields.CharField(null=True, description="What the inviter supplied; a new person's names default to them when accepting.", max_length=100)),
                ('last_name', fields.CharField(null=True, max_length=100)),
                ('token_hash', fields.CharField(unique=True, max_length=64)),
                ('status', fields.CharField(default='pending', description='pending -> accepted | declined | revoked | expired.', max_length=10)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('invited_by', fields.ForeignKeyField('models.User', source_field='invited_by_id', null=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
                ('user', fields.ForeignKeyField('models.User', source_field='user_id', null=True, description='The user the invitation enrolled (set when accepted).', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.SET_NULL)),
                ('decided_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'invitations', 'app': 'models', 'pk_attr': 'id', 'table_description': 'An invitation of a person, by email, to a role in a workspace (domain/users.py).'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='OwnershipTransfer',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('from_user', fields.ForeignKeyField('models.User', source_field='from_user_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('to_user', fields.ForeignKeyField('models.User', source_field='to_user_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('status', fields.CharField(default='pending', description='pending -> accepted | declined | cancelled | expired.', max_length=10)),
                ('expires_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('decided_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'ownership_transfers', 'app': 'models', 'pk_attr': 'id', 'table_description': "A transfer of a workspace's ownership (domain/ownership.py): the owner starts it, the"},
            bases=['TimestampedModel'],
        ),
        ops.RunSQL(
            [
                """
                WITH demoted AS (
                    UPDATE workspace_members m SET role = 'ADMIN', updated_at = now()
                    WHERE m.role = 'OWNER' AND EXISTS (
                        SELECT 1 FROM workspace_members o
                        WHERE o.workspace_id = m.workspace_id AND o.role = 'OWNER'
                          AND (o.created_at, o.id) < (m.created_at, m.id))
                    RETURNING m.workspace_id, m.user_id
                )
                INSERT INTO audit_log (id, workspace_id, actor_id, actor_type, action, object_type, object_id,
                                       details, created_at)
                SELECT gen_random_uuid(), workspace_id, NULL, 'system', 'user.role_changed', 'user', user_id::text,
                       '{"from": "OWNER", "to": "ADMIN", "reason": "one owner per workspace (migration 0010)"}',
                       now()
                FROM demoted;
                """,
                "CREATE UNIQUE INDEX workspace_members_one_owner ON workspace_members (workspace_id) "
                "WHERE role = 'OWNER';",
                "CREATE UNIQUE INDEX ownership_transfers_one_pending ON ownership_transfers (workspace_id) "
                "WHERE status = 'pending';",
                "CREATE UNIQUE INDEX invitations_one_pending ON invitations (workspace_id, email) "
                "WHERE status = 'pending';",
            ],
            reverse_sql=[
                "DROP INDEX invitations_one_pending;",
                "DROP INDEX ownership_transfers_one_pending;",
                "DROP INDEX workspace_members_one_owner;",
            ],
        ),
    ]
