"""Every error leaves as ``{code, error, details}``; internals never leak.

With ``CONTRACT_CHECKS`` on (the test suite), an error an operation did not declare in its
contract (:mod:`api.contract`) is recorded in ``app.ctx.contract_violations``.
"""

from __future__ import annotations

import logging

from sanic import Request, Sanic
from sanic.exceptions import BadRequest, MethodNotAllowed, NotFound, SanicException
from sanic.response import HTTPResponse, json

from api.contract import contract_of
from domain.errors import DomainError

logger = logging.getLogger(__name__)

#: Sanic's message when ``request.json`` cannot parse the body.
_JSON_PARSE_FAILURE = "Failed when parsing body as json"


def envelope(status: int, code: str, message: str, details: dict | None = None, *,
             request: Request | None = None) -> HTTPResponse:
    response = json({"code": code, "error": message, "details": details or {}}, status=status)
    request_id = getattr(getattr(request, "ctx", None), "request_id", None)
    if request_id:
        response.headers["X-Request-Id"] = request_id
    if request is not None:
        _check_declared(request, status, code)
    return response


def _check_declared(request: Request, status: int, code: str) -> None:
    app = request.app
    if status >= 500 or not app.config.get("CONTRACT_CHECKS"):
        return  # a 5xx is a defect wherever it happens, not a missing declaration
    contract = contract_of(request)
    if contract is not None and not contract.declares_error(status, code):
        app.ctx.contract_violations.append(f"{request.method} {request.path}: {status} {code} "
                                           f"is not declared by {contract.operation_id}")


def _sanic_code(exc: SanicException) -> str:
    if isinstance(exc, NotFound):
        return "NOT_FOUND"
    if isinstance(exc, MethodNotAllowed):
        return "METHOD_NOT_ALLOWED"
    if isinstance(exc, BadRequest):
        return "MALFORMED_JSON" if str(exc) == _JSON_PARSE_FAILURE else "BAD_REQUEST"
    return {401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 413: "PAYLOAD_TOO_LARGE",
            408: "REQUEST_TIMEOUT", 503: "SERVICE_UNAVAILABLE"}.get(exc.status_code, "HTTP_ERROR")


def install(app: Sanic) -> None:
    app.ctx.contract_violations = []

    @app.exception(DomainError)
    async def domain_error(request: Request, exc: DomainError) -> HTTPResponse:
        return envelope(exc.status, exc.code, exc.message, exc.details, request=request)

    @app.exception(SanicException)
    async def sanic_error(request: Request, exc: SanicException) -> HTTPResponse:
        status = exc.status_code or 500
        if status >= 500:
            logger.error("request %s failed: %s", getattr(request.ctx, "request_id", "-"), type(exc).__name__)
            return envelope(status, "INTERNAL_ERROR", "internal error", {"request_id": request.ctx.request_id},
                            request=request)
        details: dict = {}
        message = str(exc)
        if isinstance(exc, MethodNotAllowed):
            details = {"method": request.method}
        if isinstance(exc, NotFound):
            message = f"no route for {request.method} {request.path}"
        code = _sanic_code(exc)
        if code == "MALFORMED_JSON":
            message = "the request body is not valid JSON"
        response = envelope(status, code, message, details, request=request)
        if isinstance(exc, MethodNotAllowed) and exc.headers.get("Allow"):
            response.headers["Allow"] = exc.headers["Allow"]
        return response

    @app.exception(Exception)
    async def unexpected(request: Request, exc: Exception) -> HTTPResponse:
        request_id = getattr(request.ctx, "request_id", None)
        # Log the traceback for operators; the caller gets only the request id to quote.
        logger.exception("unhandled error in request %s", request_id)
        return envelope(500, "INTERNAL_ERROR", "internal error; quote the request_id to support",
                        {"request_id": request_id}, request=request)
