from tortoise import migrations

# The authentication generation (0310) was built beside the commit-order horizon and the chain
# watchers (joined in 0253); this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0253_merge'),
        ('models', '0310_auth_generation'),
    ]

    initial = False

    operations = []
