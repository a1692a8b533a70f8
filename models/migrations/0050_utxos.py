from tortoise import migrations
from tortoise.migrations import operations as ops
from core.clock import now
from tortoise import fields
from tortoise.indexes import Index

class Migration(migrations.Migration):
    dependencies = [('models', '0030_tags')]

    initial = False

    operations = [
        ops.CreateModel(
            name='ChainUtxo',
            fields=[
                ('id', fields.BigIntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('network', fields.CharField(max_length=40)),
                ('tx_hash', fields.CharField(max_length=80)),
                ('output_index', fields.IntField()),
                ('address', fields.CharField(max_length=100)),
                ('amount', fields.DecimalField(max_digits=78, decimal_places=0)),
                ('script_pubkey', fields.CharField(description="The locking script (hex): what a spend's BIP-341 sighash commits to.", max_length=200)),
                ('block_height', fields.BigIntField(null=True, description='Height of the block holding it; null while unconfirmed (our own change, just broadcast).')),
                ('spent_by', fields.CharField(null=True, description="Transaction spending it (submitted by us, or seen in a block), and that block's height.", max_length=80)),
                ('spent_height', fields.BigIntField(null=True)),
                ('reserved_by', fields.CharField(null=True, description='Intent key of the payment it is reserved for (chosen by coin selection, not yet submitted).', max_length=100)),
                ('reserved_at', fields.DatetimeField(null=True, auto_now=False, auto_now_add=False)),
                ('created_at', fields.DatetimeField(default=now, auto_now=False, auto_now_add=False)),
            ],
            options={'table': 'chain_utxos', 'app': 'models', 'unique_together': (('network', 'tx_hash', 'output_index'),), 'indexes': [Index(fields=['network', 'address', 'spent_by']), Index(fields=['network', 'reserved_by']), Index(fields=['network', 'spent_by'])], 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
