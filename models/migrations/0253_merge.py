from tortoise import migrations

# The commit-order horizon per database (0252) and the chain watchers' block hashes (0340) were
# built side by side; this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0252_commit_horizon'),
        ('models', '0340_chain_watch_reorgs'),
    ]

    initial = False

    operations = []
