"""Parsing the hex that keys, points and scalars travel in (JSON wire formats, files)."""

from __future__ import annotations

from typing import Any


class HexError(ValueError):
    """A value is not hex of the expected length."""


def parse_hex(value: Any, *, size: int | None = None, what: str = "value") -> bytes:
    """``value`` as bytes: a hex string, of exactly ``size`` bytes when given."""
    if not isinstance(value, str):
        raise HexError(f"{what} must be a hex string")
    try:
        raw = bytes.fromhex(value)
    except ValueError:
        raise HexError(f"{what} is not valid hex") from None
    if size is not None and len(raw) != size:
        raise HexError(f"{what} must be {size} bytes, got {len(raw)}")
    return raw


def hex_or_none(value: Any, *, size: int | None = None) -> bytes | None:
    """Like :func:`parse_hex`, but None instead of an error (callers that report their own)."""
    try:
        return parse_hex(value, size=size)
    except HexError:
        return None
