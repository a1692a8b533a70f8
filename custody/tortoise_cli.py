"""The configuration tortoise's own migration tool reads (``[tool.tortoise]`` in pyproject.toml).

    .venv/bin/tortoise makemigrations      # after changing a model
"""

from __future__ import annotations

from typing import Any

from core.db import tortoise_config
from core.settings import get_settings
from models import ORM_APP

#: Database used when DATABASE_URL is unset (makemigrations needs none).
_FALLBACK_URL = "postgres://postgres@127.0.0.1:5432/custody"

TORTOISE_ORM: dict[str, Any] = tortoise_config(get_settings().database_url or _FALLBACK_URL, ORM_APP)
