"""ORM models, one module per domain. ``MODEL_MODULES`` is what tortoise loads."""

MODEL_MODULES: list[str] = [
    "models.companies",
    "models.workspaces",
    "models.users",
    "models.auth",
    "models.audit",
    "models.outbox",
    "models.vaults",
]
