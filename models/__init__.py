"""ORM models, one module per domain. ``MODEL_MODULES`` is what tortoise loads."""

MODEL_MODULES: list[str] = [
    "models.companies",
    "models.workspaces",
    "models.users",
    "models.auth",
    "models.audit",
    "models.outbox",
    "models.vaults",
    # webhooks (issue 4)
    "models.webhooks",
    # threshold signing (issue 3)
    "models.keys",
    "models.signing",
    "models.cosigner",
    "models.backups",
    # wallets, networks and balances (issue 5)
    "models.wallets",
    "models.transactions",
    "models.deposits",
    "models.devnet",
]
