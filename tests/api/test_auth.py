"""Authentication service: time, signed token requests, introspection, token lifetime."""

from __future__ import annotations

import base64
import hashlib
import json
import uuid
from datetime import timedelta

from nacl.signing import SigningKey

from core import clock
from tests.support.callers import Caller, make_api_user


async def _token_over_http(client, caller: Caller) -> str:
    """The caller signs a token request and sends it: the flow every client follows."""
    _, response = await client.post("/api/v2/auth/access-token", json=caller.signed_request())
    assert response.status == 200, response.json
    caller.token = response.json["access_token"]
    return caller.token


async def test_time_reports_server_clock(client, database, frozen_clock):
    # When the client asks for the server time
    _, response = await client.get("/api/v2/auth/time")
    # Then it gets the injectable clock's time in seconds and milliseconds, as strings
    assert response.status == 200
    assert response.json["unix_seconds"] == str(int(frozen_clock.now().timestamp()))
    assert response.json["unix_milliseconds"] == str(int(frozen_clock.now().timestamp() * 1000))


async def test_signed_request_gets_a_token_that_introspects(client):
    # Given an API user with an uploaded Ed25519 public key
    caller = await make_api_user(role="ADMIN")
    # When it introspects the token it obtained with a signed payload
    await _token_over_http(client, caller)
    _, response = await client.post("/api/v2/auth/introspect", headers=caller.headers(workspace=None))
    # Then every field of the introspection result is there
    body = response.json
    assert response.status == 200
    assert body["active"] is True
    assert body["subject_type"] == "api_user" and body["subject_uuid"] == caller.user_id
    assert body["issuer"] and body["audience"] and body["jti"]
    assert int(body["expires_at"]) - int(body["issued_at"]) == 3600 * 1000
    (access,) = body["accesses"]
    assert access["tenant_uuid"] == caller.workspace_id
    assert access["role"] == "ADMIN" and access["role_status"] == "ROLE_STATUS_ACTIVE"
    assert "VIEW_WORKSPACE" in access["permissions"] and "MANAGE_QUORUM_SETTINGS" not in access["permissions"]


async def test_token_is_stored_hashed(client):
    from models.auth import AccessToken

    # Given a token issued to a signed request
    caller = await make_api_user()
    await _token_over_http(client, caller)
    # Then only its SHA-256 is stored
    stored = await AccessToken.all().values_list("token_hash", flat=True)
    assert caller.token not in stored
    assert stored == [hashlib.sha256(caller.token.encode()).hexdigest()]


async def test_tampered_signature_is_refused(client):
    caller = await make_api_user()
    request = caller.signed_request()
    # Given a payload changed after signing
    request["data"] = request["data"].replace('"user"', '"user" ')
    _, response = await client.post("/api/v2/auth/access-token", json=request)
    assert response.status == 401
    assert response.json["code"] == "INVALID_CREDENTIALS"


async def test_signature_by_another_key_is_refused(client):
    caller = await make_api_user()
    caller.signing_key = SigningKey.generate()
    _, response = await client.post("/api/v2/auth/access-token", json=caller.signed_request())
    assert response.status == 401 and response.json["code"] == "INVALID_CREDENTIALS"


async def test_timestamp_six_minutes_off_is_refused(client):
    caller = await make_api_user()
    for offset in (-360, 360):
        stamp = int(clock.now().timestamp()) + offset
        _, response = await client.post("/api/v2/auth/access-token", json=caller.signed_request(timestamp=stamp))
        assert response.status == 401
        assert response.json["code"] == "TIMESTAMP_OUT_OF_RANGE"
        assert "server_unix_seconds" in response.json["details"]


async def test_timestamp_four_minutes_off_is_accepted(client):
    caller = await make_api_user()
    stamp = int(clock.now().timestamp()) - 240
    _, response = await client.post("/api/v2/auth/access-token", json=caller.signed_request(timestamp=stamp))
    assert response.status == 200


async def test_replayed_nonce_is_refused(client):
    caller = await make_api_user()
    request = caller.signed_request(nonce="same-nonce-123")
    _, first = await client.post("/api/v2/auth/access-token", json=request)
    _, again = await client.post("/api/v2/auth/access-token", json=request)
    assert first.status == 200
    assert again.status == 401 and again.json["code"] == "NONCE_REUSED"


async def test_unknown_client_id_is_refused_like_a_bad_signature(client):
    caller = await make_api_user()
    _, response = await client.post("/api/v2/auth/access-token",
                                    json=caller.signed_request(client_id=str(uuid.uuid4())))
    assert response.status == 401 and response.json["code"] == "INVALID_CREDENTIALS"


async def test_malformed_payloads_are_400_with_the_field(client, database):
    key = SigningKey.generate()
    cases = {
        "not json": "data",
        json.dumps({"client_type": "robot", "client_id": str(uuid.uuid4()), "timestamp": 1, "nonce": "abcdefgh"}): "data.client_type",
        json.dumps({"client_type": "user", "client_id": "nope", "timestamp": 1, "nonce": "abcdefgh"}): "data.client_id",
        json.dumps({"client_type": "user", "client_id": str(uuid.uuid4()), "nonce": "abcdefgh"}): "data.timestamp",
    }
    for data, field in cases.items():
        signature = base64.b64encode(key.sign(data.encode()).signature).decode()
        _, response = await client.post("/api/v2/auth/access-token", json={"data": data, "signature": signature})
        assert response.status == 400, data
        assert response.json["code"] == "INVALID_TOKEN_REQUEST"
        assert response.json["details"]["field"] == field


async def test_expired_token_is_refused_and_introspects_inactive(client, frozen_clock):
    # Given a token obtained with a signed request
    caller = await make_api_user()
    await _token_over_http(client, caller)
    # When the token lifetime has passed on the clock
    frozen_clock.advance(timedelta(seconds=3601))
    _, response = await client.get("/api/v1/workspace", headers=caller.headers())
    assert response.status == 401 and response.json["code"] == "INVALID_TOKEN"
    _, introspection = await client.post("/api/v2/auth/introspect", headers=caller.headers(workspace=None))
    assert introspection.status == 200 and introspection.json == {"active": False}


async def test_missing_bearer_is_401(client, database):
    _, response = await client.get("/api/v1/workspace")
    assert response.status == 401 and response.json["code"] == "UNAUTHENTICATED"
