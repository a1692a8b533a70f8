from tortoise import migrations

# Webhooks, threshold signing and wallets were built side by side on 0003_vaults; this joins
# the three branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0004_webhooks'),
        ('models', '0005_signing'),
        ('models', '0006_wallets'),
    ]

    initial = False

    operations = []
