from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

# Key sets per curve (issue 14, phase 2): a signing session may sign for a Taproot output
# (merkle_root), and a withdrawal on a UTXO network signs one message per input, so it keeps
# every session it requested (signing_session_ids, in input order).


class Migration(migrations.Migration):
    dependencies = [('models', '0061_merge')]

    initial = False

    operations = [
        ops.AddField(
            model_name='SigningSession',
            name='merkle_root',
            field=fields.BinaryField(null=True, description='Taproot schemes: sign for the output key of this script tree root (empty: key path only); null: the key set\'s own key.'),
        ),
        ops.AddField(
            model_name='Transaction',
            name='signing_session_ids',
            field=fields.JSONField(null=True, description='Every signing session of the transfer, one per signing payload, in order (signing_session_id is the first).'),
        ),
    ]
