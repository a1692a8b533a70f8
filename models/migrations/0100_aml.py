# AML screening (issue 12, item 5): the workspace screener settings, one screening record per
# transfer, and the copy of the record the transaction carries (docs/aml.md).

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
            name='AmlScreening',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.ForeignKeyField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('transaction', fields.OneToOneField('models.Transaction', source_field='transaction_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.RESTRICT)),
                ('direction', fields.CharField(description='``outgoing`` (a withdrawal, screened before signing) or ``incoming`` (a deposit, after detection).', max_length=10)),
                ('status', fields.CharField(description='``pending`` (the provider has not answered), ``completed``, ``bypassed`` (not screened),', max_length=12)),
                ('provider', fields.CharField(max_length=40)),
                ('provider_ref', fields.CharField(null=True, description="The provider's own id of the registered transfer (Chainalysis' externalId, Elliptic's id).", max_length=200)),
                ('counterparty_address', fields.CharField(null=True, description='The address screened: the destination of a withdrawal, the sender of a deposit.', max_length=100)),
                ('currency_id', fields.CharField(max_length=40)),
                ('network', fields.CharField(max_length=40)),
                ('amount', fields.DecimalField(max_digits=78, decimal_places=0)),
                ('risk_level', fields.CharField(null=True, description='low, medium, high, severe (null while pending).', max_length=10)),
                ('risk_score', fields.DecimalField(null=True, max_digits=7, decimal_places=2)),
                ('matched_risks', fields.JSONField(default=list, description='``[{category, category_label, exposure_percent}]`` (exposure_percent a decimal string).', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('pre_screening_action', fields.CharField(description="``screen`` or ``bypass`` (Fireblocks' pre-screening policy: whether the transfer is screened).", max_length=16)),
                ('post_screening_action', fields.CharField(null=True, description='allow, require_approval, block, freeze (null while pending).', max_length=20)),
                ('decision_source', fields.CharField(null=True, description="What decided: ``aml:<rule id>`` of the workspace's AML policy, or ``aml:default``.", max_length=120)),
                ('decision_reason', fields.TextField(null=True, unique=False)),
                ('decision_approval', fields.JSONField(null=True, description="``require_approval``: ``{approver_user_ids, group_id, threshold, source}`` (the check's details).", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('screened_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('funds_frozen', fields.BooleanField(default=False, description="Incoming: whether the deposit's amount is in the wallet's ``frozen`` part now.")),
                ('released_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('released_by', fields.UUIDField(null=True)),
                ('updates', fields.JSONField(default=list, description='Provider updates after the first result (re-screening), oldest first:', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
            ],
            options={'table': 'aml_screenings', 'app': 'models', 'indexes': [Index(fields=['workspace_id', 'created_at']), Index(fields=['status', 'created_at']), Index(fields=['provider', 'provider_ref'])], 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.CreateModel(
            name='AmlSettings',
            fields=[
                ('id', fields.UUIDField(primary_key=True, default=uuid4, unique=True, db_index=True)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('updated_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
                ('workspace', fields.OneToOneField('models.Workspace', source_field='workspace_id', db_constraint=True, to_field='id', related_name=False, on_delete=OnDelete.CASCADE)),
                ('enabled', fields.BooleanField(default=False)),
                ('provider', fields.CharField(default='builtin', description="A provider name of domain.aml.providers' registry (``builtin`` by default).", max_length=40)),
                ('config', fields.JSONField(default=dict, description="The built-in screener's lists, categories and thresholds (domain.aml.settings).", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads)),
                ('updated_by', fields.UUIDField(null=True)),
            ],
            options={'table': 'aml_settings', 'app': 'models', 'pk_attr': 'id'},
            bases=['TimestampedModel'],
        ),
        ops.AddField(
            model_name='Transaction',
            name='aml_screening',
            field=fields.JSONField(null=True, description="A copy of the transfer's screening record as the API shows it (models.aml.AmlScreening,", encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
    ]
