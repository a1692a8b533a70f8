from tortoise import migrations

# The EVM nonce ledger (0200) was built beside governance and the audit log (joined in 0250);
# this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0200_evm_nonces'),
        ('models', '0250_merge'),
    ]

    initial = False

    operations = []
