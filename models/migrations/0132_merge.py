from tortoise import migrations

# Policies and transaction approvals (0070) were built beside change approvals, the gas station
# and AML screening (joined in 0131); this joins the branches so the migration graph has one head.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0070_policies'),
        ('models', '0131_merge'),
    ]

    initial = False

    operations = []
