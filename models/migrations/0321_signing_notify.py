from tortoise import fields, migrations
from tortoise.migrations import operations as ops

# A signing session names the actor to wake when it ends (domain/signing/sessions.py
# request_signature(notify=...)): the withdrawal pipeline collects a signature when it exists
# instead of polling for it.


class Migration(migrations.Migration):
    dependencies = [('models', '0320_single_use_stock')]

    initial = False

    operations = [
        ops.AddField(
            model_name='SigningSession',
            name='notify',
            field=fields.CharField(null=True, description='The actor woken with ``[session id, ...]`` after the commit that ends the session', max_length=100),
        ),
    ]
