from tortoise import migrations
from tortoise.migrations import operations as ops

# The ChangeLog model's docstring (its table's description) changed in the change-log rework
# without a migration; tests/models/test_migrations.py now finds such a model change.

class Migration(migrations.Migration):
    dependencies = [('models', '0480_stock_take_index')]

    initial = False

    operations = [
        ops.AlterModelOptions(
            name='ChangeLog',
            options={'table': 'transaction_change_logs', 'app': 'models', 'pk_attr': 'id', 'table_description': "A workspace's change-log retention: ``min_cursor`` is the oldest cursor the log can still"},
        ),
    ]
