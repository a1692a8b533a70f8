from tortoise import migrations

# Key sets per curve (0120) were built beside policies, change approvals, the gas station and AML
# (joined up to 0133); this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0120_signing_per_curve'),
        ('models', '0133_policies_descriptions'),
    ]

    initial = False

    operations = []
