"""Authentication service: /api/v2/auth (time, access-token, introspect)."""

from __future__ import annotations

from sanic import Blueprint, Request

from api.context import bearer_token
from api.contract import endpoint
from api.schemas.auth import AccessToken, Introspection, ServerTime, TokenRequest
from core import clock
from core.unit_of_work import unit_of_work
from domain import auth

bp = Blueprint("auth", url_prefix="/api/v2/auth")


@bp.get("/time")
@endpoint(summary="Server time, for the timestamp of a signed token request", tag="auth",
          responses={200: ServerTime}, auth=False)
async def server_time(request: Request) -> ServerTime:
    now = clock.now()
    return ServerTime(unix_milliseconds=str(auth.unix_ms(now)), unix_seconds=str(int(now.timestamp())))


@bp.post("/access-token")
@endpoint(
    summary="Exchange a signed payload for an access token", tag="auth",
    description=(
        "Body: data (the JSON payload {client_type: device|user, client_id, timestamp (unix seconds, within 5 "
        "minutes of server time), nonce (8-128 chars, once per client)} as a string) and signature (base64 "
        "Ed25519 signature of the exact bytes of data). The signature is verified before the timestamp and "
        "the nonce; an unknown client and a bad signature get the same 401 INVALID_CREDENTIALS. A malformed "
        "payload inside data is 400 INVALID_TOKEN_REQUEST naming data.<field>."
    ),
    body=TokenRequest, responses={200: AccessToken}, auth=False,
    errors={400: ["INVALID_TOKEN_REQUEST"], 401: ["INVALID_CREDENTIALS", "TIMESTAMP_OUT_OF_RANGE", "NONCE_REUSED"]},
)
async def access_token(request: Request, body: TokenRequest) -> AccessToken:
    async with unit_of_work():
        issued = await auth.issue_access_token(data=body.data, signature=body.signature)
    return AccessToken(access_token=issued.access_token, expires_at=str(auth.unix_ms(issued.expires_at)))


@bp.post("/introspect")
@endpoint(summary="Introspect the bearer token", tag="auth",
          description="An expired, revoked or unknown token answers 200 {\"active\": false}; only a missing "
                      "bearer is a 401.",
          responses={200: Introspection}, auth="token")
async def introspect(request: Request) -> Introspection:
    return Introspection.of(await auth.introspect(bearer_token(request)))
