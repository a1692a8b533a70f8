"""What each endpoint accepts and answers: checked at run time, published in the OpenAPI document.

Every endpoint is declared with :func:`endpoint`::

    @bp.post("")
    @endpoint(summary="Create a vault", body=VaultCreate, responses={201: Vault},
              errors={409: ["VAULT_LIMIT_REACHED"]})
    async def create_vault(request: Request, body: VaultCreate) -> Vault:
        ...

- The body is parsed from the raw JSON by its pydantic model (strictly: no type coercion,
  unknown fields refused) and passed as ``body``; the query string by its model as ``query``.
  Both go through sanic-ext's ``validate``. A refusal is a 400 envelope naming the field.
- What every request is held to before its handler runs (:func:`check_envelope`): a header the
  service reads given more than once is 400 DUPLICATE_HEADER; ``X-Workspace-Id`` only in the
  canonical 36-character form (8-4-4-4-12 hex digits), else 400 INVALID_WORKSPACE_ID; a body
  sent to an operation that takes one is JSON (``Content-Type: application/json``, UTF-8),
  else 415 UNSUPPORTED_MEDIA_TYPE, and repeats no key in any object, else 400 MALFORMED_JSON
  naming the key.
- The handler returns an instance of the declared response model (or :class:`Reply` to choose
  one of several declared statuses, ``None`` for an empty answer, or a ready ``HTTPResponse``
  for files); the contract serializes it, so the document and the bytes cannot disagree.
- The OpenAPI document gets, per operation: the request body and query parameters with every
  required field, type, format, enum and bound; each success status with its schema; each error
  status with the envelope and the codes it can carry. Errors every operation of its kind can
  answer (authentication, the workspace header, a malformed or oversized body) are added here.
- With ``CONTRACT_CHECKS`` on (the test suite), an error code an endpoint did not declare is
  recorded in ``app.ctx.contract_violations``, which the tests assert stays empty.

Schemas are emitted in the OpenAPI 3.0 dialect sanic-ext serves (``nullable`` instead of JSON
Schema's ``null`` type, ``enum`` instead of ``const``).
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Iterable, Literal, Mapping, Sequence, get_args, get_origin

from pydantic import BaseModel, ValidationError
from sanic import Request
from sanic.response import HTTPResponse, empty
from sanic_ext import validate
from sanic_ext.config import PRIORITY as SANIC_EXT_PRIORITY
from sanic_ext.extensions.openapi.builders import OperationBuilder, OperationStore, SpecificationBuilder
from sanic_ext.extensions.openapi.definitions import Parameter, Response

from api.context import principal
from api.schemas.common import reason_of
from domain.errors import DomainError, ValidationFailed

JSON = "application/json"

#: Request headers the service reads: each may be given once (a second value would be ignored
#: by one reader and taken by another).
SINGLE_HEADERS = ("authorization", "content-type", "content-length", "x-workspace-id", "x-request-id",
                  "x-idempotency-key", "x-attempt-key", "x-utxo-intent-key")
#: ``X-Workspace-Id``: a UUID in its canonical 36-character form only (no braces, no ``urn:uuid:``,
#: no bare hex, no spaces).
WORKSPACE_ID_PATTERN = r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
_WORKSPACE_ID = re.compile(WORKSPACE_ID_PATTERN)

#: Errors an operation answers because of how it is called, added to what it declares.
AUTH_ERRORS: dict[int, list[str]] = {401: ["UNAUTHENTICATED", "INVALID_TOKEN"]}
WORKSPACE_ERRORS: dict[int, list[str]] = {
    400: ["WORKSPACE_REQUIRED", "INVALID_WORKSPACE_ID"], 403: ["PERMISSION_DENIED"], 404: ["WORKSPACE_NOT_FOUND"]}
#: Any request may carry a body over REQUEST_MAX_BYTES, whatever the operation takes.
REQUEST_ERRORS: dict[int, list[str]] = {400: ["DUPLICATE_HEADER"], 413: ["PAYLOAD_TOO_LARGE"]}
BODY_ERRORS: dict[int, list[str]] = {400: ["VALIDATION_ERROR", "MALFORMED_JSON"], 413: ["PAYLOAD_TOO_LARGE"],
                                     415: ["UNSUPPORTED_MEDIA_TYPE"]}
QUERY_ERRORS: dict[int, list[str]] = {400: ["VALIDATION_ERROR"]}
#: What a change gated by the change approvals may answer (domain/change_approvals/gate.py).
GATED_ERRORS: dict[int, list[str]] = {403: ["QUORUM_APPROVAL_REQUIRED"], 409: ["QUORUM_NO_ELIGIBLE_APPROVERS"],
                                      503: ["CHANGE_APPROVAL_UNAVAILABLE"]}

STATUS_TEXT = {200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 400: "Bad Request",
               401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
               409: "Conflict", 410: "Gone", 413: "Payload Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Entity",
               429: "Too Many Requests", 503: "Service Unavailable"}


# --- schemas -------------------------------------------------------------------------------------


def to_openapi30(schema: Any) -> Any:
    """A pydantic (JSON Schema 2020-12) schema in the OpenAPI 3.0 dialect."""
    if isinstance(schema, list):
        return [to_openapi30(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: to_openapi30(value) for key, value in schema.items()}
    for combiner in ("anyOf", "oneOf"):
        options = out.get(combiner)
        if isinstance(options, list) and any(option == {"type": "null"} for option in options):
            rest = [option for option in options if option != {"type": "null"}]
            del out[combiner]
            if len(rest) == 1 and "$ref" not in rest[0]:
                out = {**rest[0], **out}
            elif len(rest) == 1:
                out["allOf"] = rest  # a $ref cannot carry siblings in 3.0
            else:
                out[combiner] = rest
            out["nullable"] = True
            if isinstance(out.get("enum"), list) and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]  # OpenAPI 3.0.3: nullable does not extend an enum
    if "const" in out:
        out["enum"] = [out.pop("const")]
    for bound, flag in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(out.get(bound), (int, float)) and not isinstance(out.get(bound), bool):
            out[flag] = out.pop(bound)
            out[bound] = True
    if "examples" in out and isinstance(out["examples"], list):
        examples = out.pop("examples")
        if examples:
            out["example"] = examples[0]
    return out


_registered: dict[str, type[BaseModel]] = {}


def component(model: type[BaseModel], *, mode: Literal["serialization", "validation"] = "serialization"
              ) -> dict[str, str]:
    """Register ``model`` (and the models it uses) as OpenAPI components; returns its ``$ref``.

    ``mode`` is "validation" for a request model (what it accepts), "serialization" for a
    response model (what it writes).
    """
    name = model.__name__
    known = _registered.get(name)
    if known is not None and known is not model:
        raise TypeError(f"two schemas are named {name}: {known.__module__} and {model.__module__}")
    if known is None:
        _registered[name] = model
        schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode=mode)
        spec = SpecificationBuilder()
        for def_name, definition in (schema.pop("$defs", None) or {}).items():
            spec.add_component("schemas", def_name, to_openapi30(definition))
        spec.add_component("schemas", name, to_openapi30(schema))
    return {"$ref": f"#/components/schemas/{name}"}


def error_schema(codes: Sequence[str]) -> dict[str, Any]:
    """The error envelope whose ``code`` is one of ``codes``."""
    return {
        "type": "object",
        "required": ["code", "error", "details"],
        "properties": {
            "code": {"type": "string", "enum": sorted(set(codes))},
            "error": {"type": "string"},
            "details": {"type": "object", "additionalProperties": True},
        },
        "additionalProperties": False,
    }


# --- answers ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class File:
    """A success answer that is a file (the handler returns the ``HTTPResponse`` itself)."""

    media_type: str = "application/octet-stream"
    description: str = "the file"


@dataclass(frozen=True)
class Reply:
    """A handler's answer when it declared several success statuses."""

    body: BaseModel | None
    status: int


Answer = type[BaseModel] | File | None


@dataclass
class Contract:
    """What :func:`endpoint` recorded for one operation (``handler.__contract__``)."""

    operation_id: str
    responses: dict[int, Answer]
    errors: dict[int, list[str]] = field(default_factory=dict)

    def declares_error(self, status: int, code: str) -> bool:
        return code in self.errors.get(status, ())


def gated(errors: Mapping[int, Iterable[str]] | None = None) -> dict[int, list[str]]:
    """``errors`` plus what a change gated by the change approvals may answer."""
    return _merge(GATED_ERRORS, errors or {})


def _merge(*sources: Mapping[int, Iterable[str]]) -> dict[int, list[str]]:
    merged: dict[int, list[str]] = {}
    for source in sources:
        for status, codes in source.items():
            bucket = merged.setdefault(status, [])
            bucket.extend(code for code in codes if code not in bucket)
    return merged


def _refusal(error: ValidationError, *, where: str) -> ValidationFailed:
    """A pydantic refusal as the 400 envelope: the first problem in ``details.field``/``reason``,
    all of them in ``details.errors``."""
    problems = []
    for item in error.errors(include_url=False, include_input=False):
        location = ".".join(str(part) for part in item["loc"]) or where
        problems.append({"field": location, "reason": reason_of(item, where=where)})
    first = problems[0] if problems else {"field": where, "reason": "is invalid"}
    return ValidationFailed(f"{first['field']}: {first['reason']}", code="VALIDATION_ERROR",
                            details={**first, "errors": problems})


def _is_list(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin in (list, tuple, set, frozenset):
        return True
    return any(_is_list(arg) for arg in get_args(annotation) if arg is not type(None))


class UnsupportedMediaType(DomainError):
    status = 415


def check_envelope(request: Request, *, workspace: bool) -> None:
    """What any request is held to before authentication: each header the service reads given
    once, and (for a wallet-side operation) ``X-Workspace-Id`` in its canonical form."""
    for name in SINGLE_HEADERS:
        if len(request.headers.getall(name, [])) > 1:
            label = "-".join(part.capitalize() for part in name.split("-"))
            raise ValidationFailed(f"the header {label} is given more than once", code="DUPLICATE_HEADER",
                                   details={"header": label})
    given = request.headers.get("x-workspace-id")
    if workspace and given is not None and not _WORKSPACE_ID.match(given):
        raise ValidationFailed("X-Workspace-Id must be a UUID in its canonical form "
                               "(xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)", code="INVALID_WORKSPACE_ID",
                               details={"header": "X-Workspace-Id"})


def _check_media_type(request: Request) -> None:
    """A body is JSON: ``application/json``, with no charset or ``charset=utf-8`` (RFC 8259)."""
    media, _, parameters = (request.headers.get("content-type") or "").partition(";")
    charset = ""
    for parameter in parameters.split(";"):
        key, _, value = parameter.strip().partition("=")
        if key.lower() == "charset":
            charset = value.strip().strip('"').lower()
    if media.strip().lower() != JSON or charset not in ("", "utf-8"):
        raise UnsupportedMediaType("the request body must be JSON: send Content-Type: application/json (UTF-8)",
                                   code="UNSUPPORTED_MEDIA_TYPE",
                                   details={"content_type": request.headers.get("content-type") or None})


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of the duplicate check: an object whose keys repeat is refused."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(raw: bytes) -> None:
    """RFC 8259 leaves an object with a repeated name to each parser (the last one wins here, the
    first one elsewhere): such a body is refused, naming the key."""
    try:
        json.loads(raw, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise ValidationFailed(f"the request body gives the key {exc.key!r} more than once", code="MALFORMED_JSON",
                               details={"field": exc.key, "reason": "is given more than once"}) from None
    except (ValueError, RecursionError):
        return  # not JSON (or nested beyond Python's parser): the model's parser answers it


class _BodyValidator:
    """The ``json`` validator handed to sanic-ext: strict pydantic parsing of the raw body."""

    def __init__(self, model: type[BaseModel]) -> None:
        self.model = model

    def __call__(self, *, request: Request, data: Any, handler_kwargs: dict[str, Any]) -> None:
        if request.body:
            _check_media_type(request)
            _refuse_duplicate_keys(request.body)
        raw = request.body or b"{}"
        try:
            handler_kwargs["body"] = self.model.model_validate_json(raw)
        except ValidationError as exc:
            if any(item["type"] == "json_invalid" for item in exc.errors()):
                raise ValidationFailed("the request body is not valid JSON", code="MALFORMED_JSON") from None
            if any(item["type"] == "model_type" and not item["loc"] for item in exc.errors()):
                raise ValidationFailed("the request body must be a JSON object", code="MALFORMED_JSON") from None
            raise _refusal(exc, where="body") from None


class _QueryValidator:
    """The ``query`` validator handed to sanic-ext: one value per scalar parameter, lists repeated."""

    def __init__(self, model: type[BaseModel]) -> None:
        self.model = model
        self.aliases = {(info.alias or name): name for name, info in model.model_fields.items()}
        self.lists = {(info.alias or name) for name, info in model.model_fields.items() if _is_list(info.annotation)}

    def __call__(self, *, request: Request, data: Any, handler_kwargs: dict[str, Any]) -> None:
        values: dict[str, Any] = {}
        # Blank values are kept: ``?limit=`` is a bad limit, not a missing one.
        for key, given in request.get_args(keep_blank_values=True).items():
            if key in self.lists:
                values[key] = given
            elif len(given) > 1:
                raise ValidationFailed(f"{key}: is given more than once", code="VALIDATION_ERROR",
                                       details={"field": key, "reason": "is given more than once"})
            else:
                values[key] = given[0]
        try:
            handler_kwargs["query"] = self.model.model_validate(values)
        except ValidationError as exc:
            raise _refusal(exc, where="query") from None


# --- the decorator ---------------------------------------------------------------------------------

Handler = Callable[..., Awaitable[Any]]


def _query_parameters(model: type[BaseModel]) -> list[Parameter]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}", mode="validation")
    definitions = schema.pop("$defs", None) or {}
    spec = SpecificationBuilder()
    for def_name, definition in definitions.items():
        spec.add_component("schemas", def_name, to_openapi30(definition))
    required = set(schema.get("required", []))
    parameters = []
    for name, prop in schema.get("properties", {}).items():
        prop = to_openapi30(prop)
        description = prop.pop("description", None)
        extra: dict[str, Any] = {"explode": True, "style": "form"} if prop.get("type") == "array" else {}
        parameters.append(Parameter(name, prop, "query", required=name in required, description=description,
                                    **extra))
    return parameters


def endpoint(
    *,
    summary: str,
    description: str | None = None,
    body: type[BaseModel] | None = None,
    body_required: bool | None = None,
    query: type[BaseModel] | None = None,
    responses: Mapping[int, Answer],
    errors: Mapping[int, Iterable[str]] | None = None,
    auth: bool | Literal["token"] = True,
    workspace: bool = False,
    headers: Sequence[tuple[str, dict[str, Any], str]] = (),
    tag: str | None = None,
) -> Callable[[Handler], Handler]:
    """Declare an operation (see the module docstring).

    ``body_required``: whether the body may be left out (it is then read as ``{}``); by default
    it is required exactly when the model has a required field.
    ``auth``: True (a valid bearer token, checked before anything else), False (none), or
    ``"token"`` (a bearer token the handler examines itself: introspection).

    ``workspace`` marks wallet-side operations that take ``X-Workspace-Id``; ``headers`` adds
    other request headers as ``(name, schema, description)``.
    """
    auth_errors = {True: AUTH_ERRORS, "token": {401: ["UNAUTHENTICATED"]}}.get(auth, {})
    declared = _merge(REQUEST_ERRORS, auth_errors, WORKSPACE_ERRORS if workspace else {},
                      BODY_ERRORS if body is not None else {}, QUERY_ERRORS if query is not None else {},
                      errors or {})

    if body_required is None:
        body_required = body is not None and any(info.is_required() for info in body.model_fields.values())

    def decorate(handler: Handler) -> Handler:
        validated = validate(json=_BodyValidator(body) if body is not None else None,  # type: ignore[arg-type]  # sanic-ext's types
                             query=_QueryValidator(query) if query is not None else None)(handler)  # type: ignore[arg-type]  # sanic-ext's types
        answers = dict(responses)

        @functools.wraps(handler)
        async def run(request: Request, *args: Any, **kwargs: Any) -> HTTPResponse:
            check_envelope(request, workspace=workspace)
            if auth is True:
                # Who is calling is settled before what they sent: no token, no validation.
                await principal(request)
            result = await validated(request, *args, **kwargs)
            return _serialize(result, answers, operation=handler.__name__)

        signature = inspect.signature(handler)
        run.__signature__ = signature  # type: ignore[attr-defined]  # an attribute of the wrapper
        path_parameters = [name for name in signature.parameters if name not in ("request", "body", "query")]
        # A path parameter of the wrong type (a malformed id) matches no route: 404 NOT_FOUND.
        errors_here = _merge(declared, {404: ["NOT_FOUND"]}) if path_parameters else declared
        contract = Contract(operation_id=handler.__name__, responses=answers, errors=errors_here)
        run.__contract__ = contract  # type: ignore[attr-defined]  # an attribute of the wrapper
        _declare(run, contract, summary=summary, description=description, body=body, body_required=body_required,
                 query=query, auth=auth, workspace=workspace, headers=headers, tag=tag)
        return run

    return decorate


def _serialize(result: Any, answers: Mapping[int, Answer], *, operation: str) -> HTTPResponse:
    if isinstance(result, HTTPResponse):
        if result.status not in answers:
            raise TypeError(f"{operation} answered status {result.status}, which it does not declare")
        return result
    if isinstance(result, Reply):
        status, payload = result.status, result.body
    else:
        status, payload = next(iter(answers)), result
    if status not in answers:
        raise TypeError(f"{operation} answered status {status}, which it does not declare")
    expected = answers[status]
    if payload is None:
        if expected is not None:
            raise TypeError(f"{operation} answered no body with status {status}")
        return empty(status=status)
    if not isinstance(expected, type) or not isinstance(payload, expected):
        raise TypeError(f"{operation} answered {type(payload).__name__} where it declares {expected}")
    return HTTPResponse(payload.model_dump_json(), status=status, content_type=JSON)


class _Operation(OperationBuilder):
    """An operation's OpenAPI entry whose schemas are written when the document is first built.

    Writing every operation's request and response schemas (pydantic's JSON schemas, sanic-ext's
    definitions) took about 1 s of CPU at each import of the API, in every process that serves
    it, most of which never serve the document. :func:`endpoint` records at once what sanic-ext
    reads when the app starts (the name, the summary, the tag, the security); the rest waits in
    :data:`_UNDOCUMENTED` until sanic-ext first builds an operation's entry (the document's first
    request), and is then written for every operation, in the order they were declared, so the
    document is the same as if written at import.
    """

    def build(self) -> Any:
        _document_all()
        return super().build()


#: The schemas of operations declared and not yet written, in declaration order (:class:`_Operation`).
_UNDOCUMENTED: list[Callable[[], None]] = []


def _document_all() -> None:
    if not _UNDOCUMENTED:
        return
    while _UNDOCUMENTED:
        _UNDOCUMENTED.pop(0)()
    # The schemas just written go in name order with the others (see order_document).
    spec = SpecificationBuilder()
    spec._components = {kind: dict(sorted(entries.items())) if isinstance(entries, dict) else entries
                        for kind, entries in sorted(spec._components.items())}


#: Where sanic-ext builds the document's paths at the start (its listener's priority): ordering
#: them runs after it.
_AFTER_THE_DOCUMENT_IS_BUILT = SANIC_EXT_PRIORITY - 10


def order_document(app: Any) -> None:
    """Serve the OpenAPI document in one order whatever the process: paths, each path's methods,
    tags and components in name order (as sdk/scripts/generate_client.py ``canonical`` writes
    sdk/openapi.json).

    Sanic keeps a blueprint's routes in a set until it registers them, so the router's order,
    which sanic-ext's document follows, changed from one process to the next (hash
    randomization): two copies of the served document differed in everything but content.
    """

    def order(_app: Any) -> None:
        spec = SpecificationBuilder()
        ordered: defaultdict[str, dict[str, Any]] = defaultdict(dict)
        for path, operations in sorted(spec._paths.items()):
            ordered[path] = dict(sorted(operations.items()))
        spec._paths = ordered
        spec._tags = dict(sorted(spec._tags.items()))

    app.register_listener(order, "before_server_start", priority=_AFTER_THE_DOCUMENT_IS_BUILT)


def _declare(run: Handler, contract: Contract, *, summary: str, description: str | None,
             body: type[BaseModel] | None, body_required: bool, query: type[BaseModel] | None,
             auth: bool | Literal["token"], workspace: bool,
             headers: Sequence[tuple[str, dict[str, Any], str]], tag: str | None) -> None:
    # The document lists the schemas before what the app adds when it is made (its security
    # scheme), as when they were written at import.
    SpecificationBuilder()._components.setdefault("schemas", {})
    operation: Any = _Operation()  # sanic-ext's builders are loosely typed
    OperationStore()[run] = operation
    operation.name(contract.operation_id)
    operation.describe(summary=summary, description=description)
    if tag:
        operation.tag(tag)
    if auth:
        operation.secured("BearerAuth")

    def document() -> None:
        # sanic-ext adds the path's parameters when the app starts, after those written here
        # (and not one of the same name): they go back after them.
        added = operation.parameters
        operation.parameters = []
        _document(operation, contract, body=body, body_required=body_required, query=query,
                  workspace=workspace, headers=headers)
        names = {parameter.fields["name"] for parameter in operation.parameters}
        operation.parameters += [parameter for parameter in added if parameter.fields["name"] not in names]

    _UNDOCUMENTED.append(document)


def _document(operation: Any, contract: Contract, *,
              body: type[BaseModel] | None, body_required: bool, query: type[BaseModel] | None,
              workspace: bool, headers: Sequence[tuple[str, dict[str, Any], str]]) -> None:
    if body is not None:
        operation.body({JSON: component(body, mode="validation")}, required=body_required)
    if query is not None:
        operation.parameters.extend(_query_parameters(query))
    if workspace:
        operation.parameters.append(Parameter(
            "X-Workspace-Id", {"type": "string", "format": "uuid", "pattern": WORKSPACE_ID_PATTERN}, "header",  # type: ignore[arg-type]  # sanic-ext's types
            required=False, description="The workspace of the call, a UUID in its canonical 36-character form; "
                                        "optional when the caller has exactly one."))
    for name, schema, text in headers:
        operation.parameters.append(Parameter(name, schema, "header", required=False, description=text))  # type: ignore[arg-type]  # sanic-ext's types
    for status, answer in contract.responses.items():
        label = STATUS_TEXT.get(status, "OK")
        if answer is None:
            operation.responses[status] = Response(None, description=label)
        elif isinstance(answer, File):
            operation.response(status, {answer.media_type: {"type": "string", "format": "binary"}},
                               answer.description)
        else:
            operation.response(status, {JSON: component(answer)}, label)
    for status, codes in sorted(contract.errors.items()):
        answer = contract.responses.get(status)
        schema = error_schema(codes)
        if isinstance(answer, type):
            # One status, two bodies (409 with the existing transaction, or an error envelope):
            # exactly one of them matches any answer.
            schema = {"oneOf": [component(answer), schema]}
        operation.response(status, {JSON: schema},
                           f"{STATUS_TEXT.get(status, 'Error')}: {', '.join(codes)}")


def websocket(*, summary: str, description: str, query: Sequence[tuple[str, dict[str, Any], str]] = (),
              tag: str | None = None) -> Callable[[Handler], Handler]:
    """Document a WebSocket route (its handler is not an :func:`endpoint`): the summary, the
    messages in ``description``, its query parameters, 101 when it opens; anything but an
    upgrade is refused (the ``default`` answer). See :func:`document_websockets`."""

    def decorate(handler: Handler) -> Handler:
        operation = OperationStore()[handler]
        operation.name(handler.__name__)
        operation.describe(summary=summary, description=description)
        if tag:
            operation.tag(tag)
        operation.secured("BearerAuth")
        for name, schema, text in query:
            operation.parameters.append(Parameter(name, schema, "query", required=False, description=text))  # type: ignore[arg-type]  # sanic-ext's types
        operation.responses[101] = Response(None, description="Switching Protocols: the WebSocket is open")
        operation.responses["default"] = Response(None, description="Anything but a WebSocket upgrade is refused")
        return handler

    return decorate


def document_websockets(app: Any) -> None:
    """Give each WebSocket route the OpenAPI entry declared on its handler.

    Sanic serves a WebSocket route through a ``functools.partial`` around the handler, and
    sanic-ext looks the operation up by that partial: without this the document showed the
    partial's own docstring as the summary. Call it once the blueprints are registered.
    """
    store = OperationStore()
    for route in app.router.routes:
        handler = route.handler
        if getattr(handler, "is_websocket", False) and isinstance(handler, functools.partial) and handler.args:
            declared = handler.args[0]
            if declared in store:
                store[handler] = store[declared]


def contract_of(request: Request) -> Contract | None:
    """The contract of the route that served ``request`` (None before routing)."""
    route = getattr(request, "route", None)
    handler = getattr(route, "handler", None)
    return getattr(handler, "__contract__", None)
