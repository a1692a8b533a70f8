"""Building blocks of every request and response schema.

Request bodies derive from :class:`RequestBody` (unknown fields refused, the same way everywhere),
query strings from :class:`QueryParams`, responses from :class:`Resource`. Field types below
carry the rules the whole API shares: text without control characters, bounded integers,
amounts as integer strings (never floats), timestamps in RFC 3339 with ``Z``.
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Annotated, Any, Generic, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StringConstraints,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
)
from pydantic_core import PydanticCustomError

from core.clock import rfc3339
from domain.errors import ValidationFailed

#: No C0 control characters (NUL included) and no DEL: they have no place in names, emails or
#: descriptions, and a NUL cannot even be stored by PostgreSQL.
NO_CONTROL_CHARACTERS = r"^[^\x00-\x1f\x7f]*$"

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_EMAIL = re.compile(r"^[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+\.[^@\s\x00-\x1f\x7f]+$")

#: Largest integer accepted anywhere in a query or a body: a PostgreSQL BIGINT.
MAX_INT = 2**63 - 1


def _no_control_characters(value: Any) -> Any:
    if isinstance(value, str) and _CONTROL.search(value):
        raise PydanticCustomError("control_characters", "must not contain control characters")
    return value


def _email_shape(value: Any) -> Any:
    if isinstance(value, str) and not _EMAIL.match(value.strip()):
        raise PydanticCustomError("email", "must be an email address")
    return value


def text(*, min_length: int = 1, max_length: int = 200, strip: bool = True) -> Any:
    """A text field: trimmed (by default), bounded, no control characters."""
    return Annotated[str, StringConstraints(strip_whitespace=strip, min_length=min_length, max_length=max_length,
                                            pattern=NO_CONTROL_CHARACTERS), BeforeValidator(_no_control_characters)]


Name = text(max_length=100)
Email = Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True, min_length=3, max_length=320,
                                         pattern=_EMAIL.pattern), BeforeValidator(_email_shape)]
#: An amount in the smallest unit of its currency: digits only, on the wire as a string.
AtomicAmount = Annotated[str, StringConstraints(pattern=r"^(0|[1-9][0-9]{0,77})$")]
#: An amount in whole units of its currency, as a decimal string (``"1.5"``): for display.
DecimalAmount = Annotated[str, StringConstraints(pattern=r"^-?[0-9]+(\.[0-9]+)?$")]
#: A timestamp as the API writes it: RFC 3339 in UTC with ``Z``.
Timestamp = Annotated[datetime, PlainSerializer(rfc3339, return_type=str, when_used="json"),
                      WithJsonSchema({"type": "string", "format": "date-time"})]
Limit = Annotated[int, Field(ge=1)]
Offset = Annotated[int, Field(ge=0, le=MAX_INT)]


def absent_means_unchanged(schema: dict[str, Any]) -> None:
    """``json_schema_extra`` of an optional update field that may not be null: leaving it out
    keeps the current value, so the document shows no ``default: null``."""
    schema.pop("default", None)


class RequestBody(BaseModel):
    """A JSON request body: unknown fields are refused, types are not coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class QueryParams(BaseModel):
    """A query string: unknown parameters are refused; values are converted from text."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Resource(BaseModel):
    """A response body (fields named like Python keywords, e.g. ``from``, use aliases)."""

    model_config = ConfigDict(frozen=True, serialize_by_alias=True, validate_by_name=True, validate_by_alias=True)


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


def refused_as(code: str, *, reason: str | None = None) -> WrapValidator:
    """Annotate a field whose refusal by its schema answers ``code`` instead of VALIDATION_ERROR.

    For inputs that have their own documented code (``INVALID_EVENT_TYPE``, ``INVALID_COMMITMENT``,
    ``INVALID_BACKUP_PUBLIC_KEY``...): the schema still types, bounds and documents the field, and
    a value it refuses answers ``code`` with the usual ``details.field`` / ``details.reason``
    (``reason``, when given, replaces the schema's message). A missing required field stays a
    VALIDATION_ERROR like everywhere else. Declare ``code`` in the operation's ``errors``.

    Put it on the top-level field (``Annotated[Model, refused_as(...)]``): ``details.field`` is
    then the full path (``package.commitments.0``). When several fields are wrong, a coded
    field's refusal is the one answered.
    """

    def check(value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        try:
            return handler(value)
        except ValidationError as exc:
            problems = []
            for item in exc.errors(include_url=False):
                location = ".".join(str(part) for part in (info.field_name, *item["loc"]) if part is not None)
                problems.append({"field": location, "reason": reason or reason_of(item)})
            first = problems[0]
            raise ValidationFailed(f"{first['field']}: {first['reason']}", code=code,
                                   details={**first, "errors": problems}) from None

    return WrapValidator(check)


def reason_of(item: Any, *, where: str = "body") -> str:
    """A pydantic problem in the words of the API's validation errors (``details.reason``)."""
    if item["type"] == "missing":
        return "is required"
    if item["type"] == "extra_forbidden":
        return "is not a known field" if where == "body" else "is not a known parameter"
    if item["type"] == "value_error" and "error" in item.get("ctx", {}):
        return str(item["ctx"]["error"])
    return str(item["msg"])
