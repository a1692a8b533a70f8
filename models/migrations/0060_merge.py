from tortoise import migrations

# Withdrawals (0020-0021), tags (0030) and the UTXO index of the real networks (0050) were built
# side by side on 0008; this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0021_whitelist_live_unique'),
        ('models', '0050_utxos'),
    ]

    initial = False

    operations = []
