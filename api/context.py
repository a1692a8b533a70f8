"""What every endpoint needs: the JSON body, the caller and the selected workspace."""

from __future__ import annotations

import json
from typing import Any

from sanic import Request

from core.clock import rfc3339
from domain import auth
from domain.errors import Unauthenticated, ValidationFailed
from models.workspaces import Workspace


def json_body(request: Request) -> dict[str, Any]:
    """The request body as a JSON object; malformed JSON is a 400 MALFORMED_JSON."""
    raw = request.body
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidationFailed("the request body is not valid JSON", code="MALFORMED_JSON") from exc
    if not isinstance(body, dict):
        raise ValidationFailed("the request body must be a JSON object", code="MALFORMED_JSON")
    return body


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("send the access token as 'Authorization: Bearer <token>'", code="UNAUTHENTICATED")
    return token.strip()


async def principal(request: Request) -> auth.Principal:
    """The authenticated caller (401 if the token is missing, unknown, expired or revoked)."""
    cached = getattr(request.ctx, "principal", None)
    if cached is not None:
        return cached
    request.ctx.principal, request.ctx.auth_generation = await auth.authenticate_at_generation(bearer_token(request))
    return request.ctx.principal


async def workspace(request: Request) -> tuple[auth.Principal, Workspace]:
    """The caller and the workspace chosen by ``X-Workspace-Id``."""
    caller = await principal(request)
    return caller, await auth.resolve_workspace(caller, request.headers.get("x-workspace-id"),
                                                generation=getattr(request.ctx, "auth_generation", None))


#: Timestamps on the wire (RFC 3339, UTC, ``Z``); one formatter for the API and the domain.
iso = rfc3339
