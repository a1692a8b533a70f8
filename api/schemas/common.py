"""Building blocks of every request and response schema.

Request bodies derive from :class:`RequestBody` (unknown fields refused, the same way everywhere),
query strings from :class:`QueryParams`, responses from :class:`Resource`. Field types below
carry the rules the whole API shares: text without control characters, bounded integers,
amounts as integer strings (never floats), timestamps in RFC 3339 with ``Z``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, StringConstraints, WithJsonSchema

from core.clock import rfc3339

#: No C0 control characters (NUL included) and no DEL: they have no place in names, emails or
#: descriptions, and a NUL cannot even be stored by PostgreSQL.
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"

#: Largest integer accepted anywhere in a query or a body: a PostgreSQL BIGINT.
MAX_INT = 2**63 - 1


def text(*, min_length: int = 1, max_length: int = 200, strip: bool = True) -> Any:
    """A text field: trimmed (by default), bounded, no control characters."""
    return Annotated[str, StringConstraints(strip_whitespace=strip, min_length=min_length, max_length=max_length,
                                            pattern=NO_CONTROL_CHARACTERS)]


Name = text(max_length=100)
Email = Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True, min_length=3, max_length=320,
                                         pattern=r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")]
#: An amount in the smallest unit of its currency: digits only, on the wire as a string.
AtomicAmount = Annotated[str, StringConstraints(pattern=r"^(0|[1-9][0-9]{0,77})$")]
#: A timestamp as the API writes it: RFC 3339 in UTC with ``Z``.
Timestamp = Annotated[datetime, PlainSerializer(rfc3339, return_type=str, when_used="json"),
                      WithJsonSchema({"type": "string", "format": "date-time"})]
Limit = Annotated[int, Field(ge=1)]
Offset = Annotated[int, Field(ge=0, le=MAX_INT)]


class RequestBody(BaseModel):
    """A JSON request body: unknown fields are refused, types are not coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class QueryParams(BaseModel):
    """A query string: unknown parameters are refused; values are converted from text."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Resource(BaseModel):
    """A response body."""

    model_config = ConfigDict(frozen=True)


class ErrorEnvelope(Resource):
    """Every error: a stable machine-readable ``code``, a message for people, structured ``details``."""

    code: str = Field(description="Stable between releases; use it for client logic.")
    error: str = Field(description="Human-readable message.")
    details: dict[str, Any] = Field(default_factory=dict,
                                    description="Structured details, e.g. field and reason of a validation error.")


ItemT = TypeVar("ItemT")


class Page(Resource, Generic[ItemT]):
    """One page of a list: ``items``, the ``total`` matching, and the page's ``limit``/``offset``."""

    items: list[ItemT]
    total: int = Field(ge=0)
    limit: int = Field(ge=1)
    offset: int = Field(ge=0)


class PageQuery(QueryParams):
    """``limit`` (1 to the list's maximum) and ``offset``; each list sets its own bounds."""

    limit: Limit | None = None
    offset: Offset = 0


def page_query(*, default: int, maximum: int, name: str) -> type[PageQuery]:
    """A paging query model for one list: ``limit`` defaults to ``default``, at most ``maximum``."""
    return type(name, (PageQuery,), {
        "__annotations__": {"limit": Annotated[int, Field(ge=1, le=maximum)]},
        "limit": Field(default, description=f"Page size, 1 to {maximum} (default {default})."),
        "__module__": __name__,
    })


IdPath = uuid.UUID
