"""Every error leaves as ``{code, error, details}``; internals never leak."""

from __future__ import annotations

import logging

from sanic import Request, Sanic
from sanic.exceptions import BadRequest, MethodNotAllowed, NotFound, SanicException
from sanic.response import HTTPResponse, json

from domain.errors import DomainError

logger = logging.getLogger(__name__)


def envelope(status: int, code: str, message: str, details: dict | None = None, *,
             request: Request | None = None) -> HTTPResponse:
    response = json({"code": code, "error": message, "details": details or {}}, status=status)
    request_id = getattr(getattr(request, "ctx", None), "request_id", None)
    if request_id:
        response.headers["X-Request-Id"] = request_id
    return response


def _sanic_code(exc: SanicException) -> str:
    if isinstance(exc, NotFound):
        return "NOT_FOUND"
    if isinstance(exc, MethodNotAllowed):
        return "METHOD_NOT_ALLOWED"
    if isinstance(exc, BadRequest):
        return "BAD_REQUEST"
    return {401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 413: "PAYLOAD_TOO_LARGE",
            408: "REQUEST_TIMEOUT", 503: "SERVICE_UNAVAILABLE"}.get(exc.status_code, "HTTP_ERROR")


def install(app: Sanic) -> None:
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
        if isinstance(exc, MethodNotAllowed):
            details = {"method": request.method}
        message = str(exc) if status < 500 else "internal error"
        if isinstance(exc, NotFound):
            message = f"no route for {request.method} {request.path}"
        return envelope(status, _sanic_code(exc), message, details, request=request)

    @app.exception(Exception)
    async def unexpected(request: Request, exc: Exception) -> HTTPResponse:
        request_id = getattr(request.ctx, "request_id", None)
        # Log the traceback for operators; the caller gets only the request id to quote.
        logger.exception("unhandled error in request %s", request_id)
        return envelope(500, "INTERNAL_ERROR", "internal error; quote the request_id to support",
                        {"request_id": request_id}, request=request)
