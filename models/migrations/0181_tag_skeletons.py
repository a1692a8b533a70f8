from tortoise import fields, migrations
from tortoise.migrations import operations as ops
from tortoise.migrations.constraints import UniqueConstraint

from common.confusables import skeleton

# Tags get label_skeleton, the UTS #39 confusable skeleton of the case-folded label, unique per
# workspace (domain/tags.py). Existing tags are backfilled; where two tags of a workspace already
# read the same ("tag" beside "tаg" with a Cyrillic а), the older keeps the skeleton and the
# newer gets its id appended, so both stay usable; renaming it applies the rule.


async def _backfill_skeletons(apps, schema_editor) -> None:
    client = schema_editor.client
    _, rows = await client.execute_query(
        "SELECT id, workspace_id, label FROM tags ORDER BY workspace_id, created_at, id")
    taken: set[tuple[str, str]] = set()
    for row in rows:
        value = skeleton(row["label"].casefold())
        if (str(row["workspace_id"]), value) in taken:
            value = f"{value}#{row['id']}"
        taken.add((str(row["workspace_id"]), value))
        await client.execute_query("UPDATE tags SET label_skeleton = $1 WHERE id = $2", [value, row["id"]])


class Migration(migrations.Migration):
    dependencies = [('models', '0180_fiat_columns')]

    initial = False

    operations = [
        ops.AddField(
            model_name='Tag',
            name='label_skeleton',
            field=fields.CharField(null=True, max_length=160),
        ),
        ops.RunPython(_backfill_skeletons, ops.RunPython.noop),
        ops.AlterField(
            model_name='Tag',
            name='label_skeleton',
            field=fields.CharField(description='``common.confusables.skeleton(label_key)`` (domain.tags.label_skeleton): what makes two labels one.', max_length=160),
        ),
        ops.AddConstraint(
            model_name='Tag',
            constraint=UniqueConstraint(fields=('workspace_id', 'label_skeleton'), name=None),
        ),
    ]
