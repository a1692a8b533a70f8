"""PostgreSQL through tortoise-orm on asyncpg: configuration, start-up and shut-down.

``TORTOISE_ORM`` is what tortoise's own migration CLI reads (``[tool.tortoise]`` in
pyproject.toml); processes call :func:`init_database` / :func:`close_database`.
"""

from __future__ import annotations

from typing import Any

from tortoise import Tortoise
from tortoise.context import TortoiseContext

from custody.settings import Settings, get_settings
from models import MODEL_MODULES

#: Database used by tortoise's CLI when DATABASE_URL is unset (makemigrations needs none).
_FALLBACK_URL = "postgres://postgres@127.0.0.1:5432/custody"


def asyncpg_url(url: str) -> str:
    """Tortoise names the asyncpg backend ``postgres://``; accept the common spellings."""
    for prefix in ("postgresql+asyncpg://", "postgresql://", "asyncpg://"):
        if url.startswith(prefix):
            return "postgres://" + url[len(prefix) :]
    return url


def tortoise_config(database_url: str) -> dict[str, Any]:
    """The tortoise configuration for ``database_url``."""
    return {
        "connections": {"default": asyncpg_url(database_url)},
        "apps": {
            "models": {
                "models": MODEL_MODULES,
                "default_connection": "default",
                "migrations": "models.migrations",
            }
        },
        "use_tz": True,
        "timezone": "UTC",
    }


TORTOISE_ORM: dict[str, Any] = tortoise_config(get_settings().database_url or _FALLBACK_URL)


async def init_database(settings: Settings | None = None) -> TortoiseContext:
    """Open the connection pool of this process (one event loop, shared by its tasks)."""
    settings = settings or get_settings()
    if not settings.database_url:
        raise RuntimeError("DATABASE_URL is not set (use `custody dev` for embedded servers)")
    # Global fallback: listeners, request handlers and actors run in different tasks of one loop.
    return await Tortoise.init(config=tortoise_config(settings.database_url), _enable_global_fallback=True)


async def close_database() -> None:
    await Tortoise.close_connections()
    # Forget the global context so that the process (or a test session) can init again.
    import tortoise.context as tortoise_context

    tortoise_context._global_context = None  # noqa: SLF001 - no public reset in tortoise 1.1


async def apply_migrations(settings: Settings | None = None) -> None:
    """Apply every committed migration (what ``custody migrate`` runs)."""
    from tortoise.migrations.api.migrate import migrate

    settings = settings or get_settings()
    if not settings.database_url:
        raise RuntimeError("DATABASE_URL is not set")
    await migrate(config=tortoise_config(settings.database_url))
    await close_database()
