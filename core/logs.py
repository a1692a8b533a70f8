"""Process logging: one line per record, no secrets (tokens and keys are never passed to loggers)."""

from __future__ import annotations

import logging

from core.settings import get_settings


def configure_logging(level: str | None = None) -> None:
    """Log to stderr at ``level`` (default: the ``LOG_LEVEL`` setting)."""
    logging.basicConfig(
        level=(level or get_settings().log_level).upper(),
        format="%(asctime)s %(levelname)s %(processName)s %(name)s: %(message)s",
    )
