from tortoise import migrations

# The single-use stock and the signing sessions' wake-ups (0320, 0321) were built beside the
# main line (0254); this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0254_merge'),
        ('models', '0321_signing_notify'),
    ]

    initial = False

    operations = []
