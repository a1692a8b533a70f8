"""Errors that carry their HTTP status and their stable, machine-readable code.

The API turns every :class:`DomainError` into the envelope ``{code, error, details}``; the
code is stable between releases, the message is for people.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """Base of every error the service reports to a caller."""

    status: int = 400
    code: str = "BAD_REQUEST"

    def __init__(self, message: str, *, code: str | None = None, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details: dict[str, Any] = details or {}


class ValidationFailed(DomainError):
    status = 400
    code = "VALIDATION_ERROR"


class Unauthenticated(DomainError):
    status = 401
    code = "UNAUTHENTICATED"


class PermissionDenied(DomainError):
    status = 403
    code = "PERMISSION_DENIED"


class NotFound(DomainError):
    status = 404
    code = "NOT_FOUND"


class Conflict(DomainError):
    status = 409
    code = "CONFLICT"


def field_error(field: str, reason: str, *, code: str = "VALIDATION_ERROR") -> ValidationFailed:
    """A validation error naming the offending field (``details.field`` / ``details.reason``)."""
    return ValidationFailed(f"{field}: {reason}", code=code, details={"field": field, "reason": reason})
