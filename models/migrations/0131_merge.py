from tortoise import migrations

# AML screening (0100) was built beside change approvals and the gas station (joined in 0130);
# this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0100_aml'),
        ('models', '0130_merge'),
    ]

    initial = False

    operations = []
