from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0007_merge')]

    initial = False

    operations = [
        ops.AlterModelOptions(
            name='Command',
            options={'table': 'outbox_commands', 'app': 'models', 'pk_attr': 'id', 'table_description': 'One job, written in the same transaction as the state it acts on.'},
        ),
        ops.AlterField(
            model_name='KeySet',
            name='scheme',
            field=fields.CharField(description='The threshold scheme (threshold.scheme), e.g. FROST-ED25519-SHA512-v1.', max_length=40),
        ),
    ]
