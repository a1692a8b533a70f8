"""Small, explicit validators for request bodies and query strings.

Each raises :class:`domain.errors.ValidationFailed` naming the field, so a bad request is a
400 with ``details.field`` and ``details.reason`` and never reaches the database.
"""

from __future__ import annotations

import base64
import binascii
import re
import uuid
from typing import Any, Mapping

from domain.errors import field_error

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def string(
    data: Mapping[str, Any], name: str, *, required: bool = True, min_len: int = 1, max_len: int = 200
) -> str | None:
    value = data.get(name)
    if value is None:
        if required:
            raise field_error(name, "is required")
        return None
    if not isinstance(value, str):
        raise field_error(name, "must be a string")
    value = value.strip()
    if len(value) < min_len:
        raise field_error(name, "must not be empty" if min_len == 1 else f"must be at least {min_len} characters")
    if len(value) > max_len:
        raise field_error(name, f"must be at most {max_len} characters")
    return value


def email(data: Mapping[str, Any], name: str = "email", *, required: bool = True) -> str | None:
    value = string(data, name, required=required, max_len=320)
    if value is not None and not _EMAIL.match(value):
        raise field_error(name, "must be an email address")
    return value.lower() if value is not None else None


def choice(data: Mapping[str, Any], name: str, allowed: set[str] | frozenset[str], *, required: bool = True) -> str | None:
    value = string(data, name, required=required, max_len=64)
    if value is not None and value not in allowed:
        raise field_error(name, f"must be one of {', '.join(sorted(allowed))}")
    return value


def uuid_value(value: Any, name: str) -> uuid.UUID:
    if not isinstance(value, str):
        raise field_error(name, "must be a UUID string")
    try:
        return uuid.UUID(value)
    except ValueError as exc:
        raise field_error(name, "must be a UUID") from exc


def base64_bytes(data: Mapping[str, Any], name: str, *, length: int | None = None) -> bytes:
    raw = string(data, name, max_len=4096)
    assert raw is not None
    try:
        decoded = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise field_error(name, "must be base64") from exc
    if length is not None and len(decoded) != length:
        raise field_error(name, f"must decode to {length} bytes, got {len(decoded)}")
    return decoded


def limit(query: Mapping[str, Any], *, default: int, maximum: int = 1000) -> int:
    """``limit`` from a query string: an integer from 1 to ``maximum``, ``default`` when absent."""
    value = _int_param(query.get("limit"), "limit", default)
    if value < 1 or value > maximum:
        raise field_error("limit", f"must be between 1 and {maximum}")
    return value


def page(query: Mapping[str, Any], *, default_limit: int, max_limit: int = 1000) -> tuple[int, int]:
    """``limit`` and ``offset`` from a query string, validated."""
    size = limit(query, default=default_limit, maximum=max_limit)
    offset = _int_param(query.get("offset"), "offset", 0)
    if offset < 0:
        raise field_error("offset", "must not be negative")
    return size, offset


def _int_param(raw: Any, name: str, default: int) -> int:
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except (TypeError, ValueError) as exc:
        raise field_error(name, "must be an integer") from exc
