"""What the current request or job is, for logs and the audit trail.

:data:`current_request_id` holds the id of the HTTP request being served (its ``X-Request-Id``)
or of the outbox command being run; the API and :func:`core.jobs.execute_command` set it, the
audit log and the log records read it.
"""

from __future__ import annotations

from contextvars import ContextVar

#: The request id of the HTTP request (or the command id of the task) being served.
current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)
