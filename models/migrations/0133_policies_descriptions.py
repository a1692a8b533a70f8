# The policies migration (0070) was written by hand without the fields' descriptions; this records
# them so the models and the migration state agree (no schema change).
from tortoise import migrations
from tortoise.migrations import operations as ops
import functools
from json import dumps, loads
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0132_merge')]

    initial = False

    operations = [
        ops.AlterField(
            model_name='PolicyVersion',
            name='copied_from_version',
            field=fields.IntField(null=True, description='A rollback: the version this one copies.'),
        ),
        ops.AlterField(
            model_name='PolicyVersion',
            name='no_match_action',
            field=fields.CharField(default='block', description='``block`` (fail closed, the default) or ``allow``.', max_length=16),
        ),
        ops.AlterField(
            model_name='PolicyVersion',
            name='policy_type',
            field=fields.CharField(description='``transfer`` or ``aml``.', max_length=16),
        ),
        ops.AlterField(
            model_name='PolicyWindowEntry',
            name='bucket',
            field=fields.DatetimeField(description='The start of the bucket the entry is counted in (see PolicyWindowBucket).', auto_now=False, auto_now_add=False),
        ),
        ops.AlterField(
            model_name='TransactionApproval',
            name='approver_ids',
            field=fields.JSONField(default=list, description='Every user who may vote (the union of the requirements\' approvers), for the "my votes" list.', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AlterField(
            model_name='TransactionApproval',
            name='requirements',
            field=fields.JSONField(default=list, description='The requirements (contract: approver_user_ids, group_id, threshold, source), in check order.', encoder=functools.partial(dumps, separators=(',', ':')), decoder=loads),
        ),
        ops.AlterField(
            model_name='TransactionApproval',
            name='status',
            field=fields.CharField(default='pending', description='``pending``, ``approved``, ``declined``, ``expired`` or ``closed`` (the withdrawal left', max_length=12),
        ),
        ops.AlterField(
            model_name='TransactionApprovalVote',
            name='vote',
            field=fields.CharField(description='``approve`` or ``decline``.', max_length=8),
        ),
    ]
