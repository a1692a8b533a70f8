from tortoise import fields, migrations
from tortoise.migrations import operations as ops

# Policy windows keep a withdrawal's USD value: a 78-digit amount's is far beyond NUMERIC(40, 8).


class Migration(migrations.Migration):
    dependencies = [('models', '0135_commit_order')]

    initial = False

    operations = [
        ops.AlterField(
            model_name='PolicyWindowBucket',
            name='amount_usd',
            field=fields.DecimalField(default=0, max_digits=100, decimal_places=8),
        ),
        ops.AlterField(
            model_name='PolicyWindowEntry',
            name='amount_usd',
            field=fields.DecimalField(null=True, max_digits=100, decimal_places=8),
        ),
    ]
