from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise.fields.base import OnDelete
from uuid import uuid4
from tortoise import fields
from tortoise.migrations.constraints import UniqueConstraint

class Migration(migrations.Migration):
    dependencies = [('models', '0181_tag_skeletons')]

    initial = False

    operations = [
        ops.CreateModel(
            name='AuditChainLink',
            fields=[
                ('entry', fields.OneToOneField('models.AuditEntry', source_field='entry_id', primary_key=True, db_index=True, db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('workspace_id', fields.UUIDField()),
                ('seq', fields.BigIntField(description="1 for the workspace's first chained entry, then one more each, with no gap.")),
                ('position', fields.BigIntField(description="The entry's position, copied: the chain is in position order.")),
                ('previous_hash', fields.CharField(description='Hex SHA-256; 64 zeros before the first entry.', max_length=64)),
                ('hash', fields.CharField(max_length=64)),
                ('chained_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'audit_chain', 'app': 'models', 'unique_together': (('workspace_id', 'seq'),), 'pk_attr': 'entry_id', 'table_description': "An entry's place in its workspace's chain: ``hash = SHA-256(previous_hash || canonical(entry))``."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='AuditHead',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('workspace_id', fields.UUIDField()),
                ('seq', fields.BigIntField()),
                ('hash', fields.CharField(max_length=64)),
                ('position', fields.BigIntField(description='The position of the entry at ``seq``: every entry below it is chained.')),
                ('key_id', fields.CharField(max_length=32)),
                ('signed_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('signature', fields.CharField(description='Base64 Ed25519 signature of ``domain.audit_chain.head_message(...)``.', max_length=88)),
            ],
            options={'table': 'audit_heads', 'app': 'models', 'unique_together': (('workspace_id', 'seq', 'key_id'),), 'pk_attr': 'id', 'table_description': "The latest link of a workspace's chain, as the service signed it."},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='AuditSigningKey',
            fields=[
                ('key_id', fields.CharField(primary_key=True, unique=True, db_index=True, max_length=32)),
                ('public_key', fields.CharField(description='Base64 of the 32-byte public key.', max_length=44)),
                ('sealed_private_key', fields.BinaryField(description='The 32-byte seed, sealed with CUSTODY_SECRET_KEY (core/sealing.py).')),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('retired_at', fields.DatetimeField(null=True, description='When a newer key took over (null for the key in use).', auto_now=False, auto_now_add=False)),
                ('previous_key_id', fields.CharField(null=True, description='The key before this one, and its base64 signature of ``domain.audit_chain.endorsement_message``.', max_length=32)),
                ('endorsement', fields.CharField(null=True, max_length=88)),
            ],
            options={'table': 'audit_signing_keys', 'app': 'models', 'pk_attr': 'key_id', 'table_description': 'An Ed25519 key that signs chain heads (``key_id``: the first 16 bytes of SHA-256 of the'},
            bases=['Model'],
        ),
        ops.AddField(
            model_name='AuditEntry',
            name='position',
            field=fields.BigIntField(null=True, description='The commit-order position ``xid << 16 | ordinal``, stamped by the trigger'),
        ),
        ops.RunSQL(
            [
                # Entries written before this migration take positions below every real one
                # (negative, in the order they were written); the append-only trigger is set
                # aside for that one statement, inside this migration's transaction.
                "ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only",
                """
                UPDATE audit_log SET position = numbered.n - numbered.total - 1
                FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS n, count(*) OVER () AS total
                      FROM audit_log) AS numbered
                WHERE audit_log.id = numbered.id
                """,
                "ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only",
                # Every entry from now on: its commit-order position, whatever the writer sent
                # (core/commit_order.NEXT_POSITION_SQL, frozen here).
                """
                CREATE FUNCTION audit_log_stamp_position() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    NEW.position := (pg_current_xact_id()::text::bigint << 16) | custody_next_commit_ordinal();
                    RETURN NEW;
                END;
                $$;
                """,
                """
                CREATE TRIGGER audit_log_position BEFORE INSERT ON audit_log
                FOR EACH ROW EXECUTE FUNCTION audit_log_stamp_position();
                """,
                "ALTER TABLE audit_log ALTER COLUMN position SET NOT NULL",
                # The chain and the signed heads are written once and never changed either.
                """
                CREATE FUNCTION custody_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
                END;
                $$;
                """,
                """
                CREATE TRIGGER audit_chain_append_only BEFORE UPDATE OR DELETE ON audit_chain
                FOR EACH ROW EXECUTE FUNCTION custody_refuse_change();
                """,
                """
                CREATE TRIGGER audit_heads_append_only BEFORE UPDATE OR DELETE ON audit_heads
                FOR EACH ROW EXECUTE FUNCTION custody_refuse_change();
                """,
            ],
            reverse_sql=[
                "DROP TRIGGER audit_heads_append_only ON audit_heads",
                "DROP TRIGGER audit_chain_append_only ON audit_chain",
                "DROP FUNCTION custody_refuse_change()",
                "ALTER TABLE audit_log ALTER COLUMN position DROP NOT NULL",
                "DROP TRIGGER audit_log_position ON audit_log",
                "DROP FUNCTION audit_log_stamp_position()",
            ],
        ),
        ops.AddConstraint(
            model_name='AuditEntry',
            constraint=UniqueConstraint(fields=('workspace_id', 'position'), name=None),
        ),
        ops.AlterModelOptions(
            name='AuditChainLink',
            options={'table': 'audit_chain', 'app': 'models', 'unique_together': (('workspace_id', 'seq'),), 'pk_attr': 'entry_id', 'table_description': "An entry's place in its workspace's chain: ``hash = SHA-256(previous_hash || canonical(entry))``."},
        ),
    ]
