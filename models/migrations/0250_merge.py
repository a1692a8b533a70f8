from tortoise import migrations

# Governance (0170-0171: the owner's enrollment, the co-signer designation) and the audit log
# (0180-0182: fiat columns, tag skeletons, the audit chain) were built beside each other on top of
# 0135; this joins the branches so the migration graph has one head again.


class Migration(migrations.Migration):
    dependencies = [
        ('models', '0171_cosigner_designation'),
        ('models', '0182_audit_chain'),
    ]

    initial = False

    operations = []
