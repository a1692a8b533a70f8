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
            name='Webhook',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('url', fields.CharField(max_length=2048)),
                ('description', fields.CharField(default='', max_length=255)),
                ('event_types', fields.JSONField(default=list, description='Subscribed event types: exact names (``transaction.created``) or a family (``transaction.*``).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('status', fields.CharField(default='active', description='``active`` or ``disabled`` (by 50 consecutive failed attempts, or by the user).', max_length=10)),
                ('secret_sealed', fields.BinaryField(description='The current ``whsec_`` secret, sealed; it signs every attempt.')),
                ('previous_secret_sealed', fields.BinaryField(null=True, description='The secret replaced by the last rotation, sealed; it also signs until its grace period ends.')),
                ('previous_secret_expires_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('secret_rotated_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('consecutive_failures', fields.IntField(default=0, description='Failed attempts since the last success (or reactivation); 50 disables the webhook.')),
                ('disabled_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('disabled_reason', fields.CharField(null=True, max_length=200)),
                ('last_success_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_failure_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('deleted_at', fields.DatetimeField(null=True, description='Soft delete: a deleted webhook is invisible and sent nothing; its history stays for audit.', auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'webhooks', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'deleted_at'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='WebhookEvent',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('type', fields.CharField(max_length=100)),
                ('payload', fields.TextField(description='The exact request body (the JSON envelope), identical on every attempt and every webhook.', unique=False)),
                ('target_webhook', fields.ForeignKeyField('models.Webhook', source_field='target_webhook_id', null=True, description='Set for events addressed to one webhook only (``webhook.test``); None fans out by subscription.', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'webhook_events', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'created_at'])], 'pk_attr': 'id', 'table_description': 'An event of a workspace; its id is the ``webhook-id`` / ``X-Webhook-Event-Id`` header.'},
            bases=['Model'],
        ),
        ops.CreateModel(
            name='WebhookDelivery',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace_id', fields.UUIDField()),
                ('webhook', fields.ForeignKeyField('models.Webhook', source_field='webhook_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('event', fields.ForeignKeyField('models.WebhookEvent', source_field='event_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('event_type', fields.CharField(description='Copy of the event type, for filtering the history without a join.', max_length=100)),
                ('status', fields.CharField(default='pending', description='pending | retrying | succeeded | failed', max_length=10)),
                ('attempt_count', fields.IntField(default=0, description='Attempts made so far (the number of the last attempt).')),
                ('window_started_at', fields.DatetimeField(null=True, description='Start of the current 24 hour retry window: the first attempt (or the first after a replay).', auto_now=False, auto_now_add=False)),
                ('last_attempt_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('next_attempt_at', fields.DatetimeField(null=True, description='When the next attempt is due (pending / retrying); None once final.', auto_now=False, auto_now_add=False)),
                ('enqueued_at', fields.DatetimeField(null=True, description="When a delivery message was last sent for it (or is due to arrive); the sweep's staleness mark.", auto_now=False, auto_now_add=False)),
                ('lease_expires_at', fields.DatetimeField(null=True, description='An attempt is in flight until then (a claim; bounded concurrency counts live claims).', auto_now=False, auto_now_add=False)),
                ('parked_at', fields.DatetimeField(null=True, description="Set while the delivery waits for a free slot of its webhook's concurrency limit.", auto_now=False, auto_now_add=False)),
                ('finished_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('last_response_status', fields.IntField(null=True)),
                ('last_response_body', fields.TextField(null=True, unique=False)),
                ('last_error', fields.TextField(null=True, unique=False)),
                ('replay_count', fields.IntField(default=0)),
            ],
            options={'table': 'webhook_deliveries', 'app': 'models', 'unique_together': (('event', 'webhook'),), 'indexes': [Index(fields=['webhook_id', 'created_at']), Index(fields=['webhook_id', 'lease_expires_at']), Index(fields=['webhook_id', 'parked_at']), Index(fields=['status', 'next_attempt_at'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='WebhookAttempt',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('delivery', fields.ForeignKeyField('models.WebhookDelivery', source_field='delivery_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('attempt_number', fields.IntField()),
                ('started_at', fields.DatetimeField(auto_now=False, auto_now_add=False)),
                ('duration_ms', fields.IntField()),
                ('response_status', fields.IntField(null=True, description='HTTP status of the response; None when no response came (timeout, refused, DNS, TLS).')),
                ('response_body', fields.TextField(null=True, description='The first 4 KB of the response body (decoded as UTF-8, invalid bytes replaced).', unique=False)),
                ('error', fields.TextField(null=True, unique=False)),
                ('succeeded', fields.BooleanField()),
            ],
            options={'table': 'webhook_attempts', 'app': 'models', 'unique_together': (('delivery', 'attempt_number'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
