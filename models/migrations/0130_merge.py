from tortoise import migrations

# Change approvals and groups (0080) were built beside the gas station (0090); this joins the
# branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0080_change_approvals'),
        ('models', '0090_gas_station'),
    ]

    initial = False

    operations = []
