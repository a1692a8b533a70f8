from tortoise import migrations

# Invitations and ownership transfers (0010) were built beside withdrawals, tags and UTXOs (0060);
# this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0010_invitations_ownership'),
        ('models', '0060_merge'),
    ]

    initial = False

    operations = []
