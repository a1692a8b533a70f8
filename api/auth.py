"""Authentication service: /api/v2/auth (time, access-token, introspect)."""

from __future__ import annotations

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import bearer_token, json_body
from core import clock
from core.unit_of_work import unit_of_work
from domain import auth

bp = Blueprint("auth", url_prefix="/api/v2/auth")


@bp.get("/time")
@openapi.summary("Server time, for the timestamp of a signed token request")
async def server_time(request: Request) -> HTTPResponse:
    now = clock.now()
    return json({"unix_milliseconds": str(auth.unix_ms(now)), "unix_seconds": str(int(now.timestamp()))})


@bp.post("/access-token")
@openapi.summary("Exchange a signed payload for an access token")
@openapi.description(
    "Body: data (the JSON payload {client_type: device|user, client_id, timestamp (unix seconds, within 5 "
    "minutes of server time), nonce (8-128 chars, once per client)} as a string) and signature (base64 "
    "Ed25519 signature of the exact bytes of data)."
)
@openapi.body({"application/json": {"data": str, "signature": str}})
async def access_token(request: Request) -> HTTPResponse:
    body = json_body(request)
    async with unit_of_work():
        issued = await auth.issue_access_token(data=body.get("data"), signature=body.get("signature"))
    return json({"access_token": issued.access_token, "expires_at": str(auth.unix_ms(issued.expires_at))})


@bp.post("/introspect")
@openapi.summary("Introspect the bearer token")
@openapi.secured("BearerAuth")
async def introspect(request: Request) -> HTTPResponse:
    return json(await auth.introspect(bearer_token(request)))
