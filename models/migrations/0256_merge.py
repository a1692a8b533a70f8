from tortoise import migrations

# The change log in commit order (0300) was built beside the main line (0255); this joins the
# branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0255_merge'),
        ('models', '0300_changelog_commit_order'),
    ]

    initial = False

    operations = []
