"""ORM models, one module per domain; :data:`ORM_APP` is what the processes open and migrate."""

from core.db import OrmApp

MODEL_MODULES: tuple[str, ...] = (
    "models.companies",
    "models.workspaces",
    "models.users",
    "models.auth",
    "models.audit",
    # The outbox's own table lives with the outbox in the low-level package.
    "core.outbox",
    "models.vaults",
    "models.tags",
    "models.webhooks",
    # threshold signing
    "models.keys",
    "models.sessions",
    "models.cosigner",
    "models.backups",
    "models.stock",
    # wallets, networks and balances
    "models.wallets",
    "models.transactions",
    "models.deposits",
    "models.devnet",
    # withdrawals
    "models.whitelist",
    # the gas station
    "models.gas_station",
    # real networks
    "models.utxos",
    "models.evm",
    "models.replacements",
    # change approvals
    "models.groups",
    "models.change_approvals",
    # AML screening
    "models.aml",
    # policies and transaction approvals
    "models.policies",
)

ORM_APP = OrmApp(model_modules=MODEL_MODULES, migrations="models.migrations")
