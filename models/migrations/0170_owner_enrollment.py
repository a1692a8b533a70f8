from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0135_commit_order')]

    initial = False

    operations = [
        ops.AddField(
            model_name='PairingSession',
            name='kind',
            field=fields.CharField(default='device', description="``device`` (a member's pairing token, minutes) or ``owner_enrollment`` (the owner's", max_length=20),
        ),
        ops.AddField(
            model_name='PairingSession',
            name='not_before',
            field=fields.DatetimeField(null=True, description='An owner recovery enrollment: the device it registers can be confirmed from then on only.', auto_now=False, auto_now_add=False),
        ),
    ]
