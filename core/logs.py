"""Process logging: one line per record, no secrets (tokens and keys are never passed to loggers).

``LOG_FORMAT=json`` writes one JSON object per line (python-json-logger) with, besides time,
level, logger and message: ``request_id`` (the HTTP request's ``X-Request-Id``, or the outbox
command an actor runs), ``actor`` and ``message_id`` (the Dramatiq message being processed) and
``process``. As a last guard, anything shaped like an access token or a webhook secret is masked
in every record, whatever the format.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import IO

from dramatiq.middleware import CurrentMessage
from pythonjsonlogger.json import JsonFormatter

from core.context import current_request_id
from core.settings import get_settings

#: Access tokens (``cws_``), webhook secrets (``whsec_``) and bearer headers, whatever logs them.
_SECRET = re.compile(r"(cws_|whsec_|Bearer\s+)[A-Za-z0-9_\-+/=]{8,}")

_TEXT_FORMAT = "%(asctime)s %(levelname)s %(processName)s %(name)s: %(message)s"

#: Libraries that narrate routine work at INFO, heard only with LOG_LEVEL=DEBUG: APScheduler writes
#: two lines per job run (the scheduler's jobs run every few seconds: over a hundred lines a
#: minute) and one per job added. Their warnings and errors (a job that failed or was missed) stay.
_CHATTY_LOGGERS = ("apscheduler.executors.default", "apscheduler.scheduler")


class ContextFilter(logging.Filter):
    """Adds what the record happened in (request id, actor, message id) and masks secrets."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id.get()
        message = CurrentMessage.get_current_message()
        record.actor = message.actor_name if message is not None else None
        record.message_id = message.message_id if message is not None else None
        text = record.getMessage()
        if _SECRET.search(text):
            record.msg, record.args = _SECRET.sub(r"\1[redacted]", text), ()
        return True


def configure_logging(level: str | None = None) -> None:
    """Log to stderr at ``level`` (default: the ``LOG_LEVEL`` setting), as ``LOG_FORMAT`` says."""
    settings = get_settings()
    level = (level or settings.log_level).upper()
    logging.basicConfig(level=level, format=_TEXT_FORMAT)
    for name in _CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG if level == "DEBUG" else logging.WARNING)
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, ContextFilter) for f in handler.filters):
            handler.addFilter(ContextFilter())
        if settings.log_format == "json":
            handler.setFormatter(JsonFormatter(
                "%(asctime)s %(levelname)s %(name)s %(message)s %(process)d %(request_id)s %(actor)s %(message_id)s",
                rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))


class _LockedStreamHandler(logging.StreamHandler):
    """A stream handler that writes under a lock it shares with other writers of the stream."""

    def __init__(self, stream: IO[str], lock: threading.Lock) -> None:
        super().__init__(stream)
        self.shared_lock = lock

    def emit(self, record: logging.LogRecord) -> None:
        with self.shared_lock:
            super().emit(record)


def add_file_log(stream: IO[str], *, lock: threading.Lock, console_level: str) -> None:
    """Also log to ``stream`` (a log file other threads write to under ``lock``) at the configured
    level, and keep only ``console_level`` and above on the existing handlers (the terminal)."""
    root = logging.getLogger()
    for handler in root.handlers:
        handler.setLevel(console_level)
    existing = root.handlers[0] if root.handlers else None
    file_handler = _LockedStreamHandler(stream, lock)
    if existing is not None and existing.formatter is not None:
        file_handler.setFormatter(existing.formatter)
    else:
        file_handler.setFormatter(logging.Formatter(_TEXT_FORMAT))
    file_handler.addFilter(ContextFilter())
    root.addHandler(file_handler)
