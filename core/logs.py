"""Process logging: one line per record, no secrets (tokens and keys are never passed to loggers)."""

from __future__ import annotations

import logging
import os


def configure_logging(level: str | None = None) -> None:
    logging.basicConfig(
        level=(level or os.environ.get("LOG_LEVEL", "INFO")).upper(),
        format="%(asctime)s %(levelname)s %(processName)s %(name)s: %(message)s",
    )
