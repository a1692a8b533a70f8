"""Users, roles and permissions: 403 with a code, removed users lose their tokens."""

from __future__ import annotations

import base64

from nacl.signing import SigningKey

from models.audit import AuditEntry
from models.users import User
from tests.support.callers import make_caller


def _public_key() -> str:
    return base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()


async def test_admin_creates_api_user_and_it_is_audited(client):
    admin = await make_caller(role="ADMIN")
    _, response = await client.post("/api/v1/users/api", headers=admin.headers(),
                                    json={"name": "settlement-bot", "role": "SIGNER", "public_key": _public_key()})
    assert response.status == 201
    body = response.json
    assert body["user_type"] == "api_user" and body["role"] == "SIGNER" and body["api_user_name"] == "settlement-bot"
    entry = await AuditEntry.get(action="user.api_user_created", object_id=body["id"])
    assert str(entry.actor_id) == admin.user_id and str(entry.workspace_id) == admin.workspace_id


async def test_role_without_permission_is_403_with_code_and_nothing_written(client):
    admin = await make_caller(role="ADMIN")
    viewer = await make_caller(role="VIEWER", workspace_id=admin.workspace_id)
    users_before = await User.all().count()
    _, response = await client.post("/api/v1/users/api", headers=viewer.headers(),
                                    json={"name": "x", "role": "ADMIN", "public_key": _public_key()})
    assert response.status == 403
    assert response.json["code"] == "PERMISSION_DENIED"
    assert response.json["details"] == {"permission": "MANAGE_USERS", "role": "VIEWER"}
    assert await User.all().count() == users_before


async def test_each_of_the_seven_roles_can_be_given(client):
    admin = await make_caller(role="ADMIN")
    for index, role in enumerate(["OWNER", "ADMIN", "NON_SIGNING_ADMIN", "SIGNER", "APPROVER", "EDITOR", "VIEWER"]):
        _, response = await client.post("/api/v1/users", headers=admin.headers(),
                                        json={"email": f"u{index}@acme.test", "role": role})
        assert response.status == 201 and response.json["role"] == role
    _, listed = await client.get("/api/v1/users", headers=admin.headers())
    assert len(listed.json["users"]) == 8


async def test_unknown_role_and_bad_public_key_are_400(client):
    admin = await make_caller(role="ADMIN")
    _, response = await client.post("/api/v1/users", headers=admin.headers(), json={"email": "a@b.test", "role": "GOD"})
    assert response.status == 400 and response.json["details"]["field"] == "role"
    _, response = await client.post("/api/v1/users/api", headers=admin.headers(),
                                    json={"name": "x", "role": "VIEWER", "public_key": base64.b64encode(b"short").decode()})
    assert response.status == 400 and response.json["details"]["field"] == "public_key"


async def test_token_of_a_removed_user_stops_working(client):
    admin = await make_caller(role="ADMIN")
    bot = await make_caller(role="SIGNER", workspace_id=admin.workspace_id)
    _, before = await client.get("/api/v1/workspace", headers=bot.headers())
    assert before.status == 200
    # When the admin removes the API user
    _, removed = await client.delete(f"/api/v1/users/{bot.user_id}", headers=admin.headers())
    assert removed.status == 204
    # Then its existing token is refused, and it cannot get a new one
    _, after = await client.get("/api/v1/workspace", headers=bot.headers())
    assert after.status == 401 and after.json["code"] == "INVALID_TOKEN"
    _, relogin = await client.post("/api/v2/auth/access-token", json=bot.signed_request())
    assert relogin.status == 401 and relogin.json["code"] == "INVALID_CREDENTIALS"
    assert await AuditEntry.filter(action="user.removed", object_id=bot.user_id).count() == 1


async def test_user_of_another_workspace_cannot_be_removed(client):
    admin = await make_caller(role="ADMIN")
    stranger = await make_caller(role="VIEWER")
    _, response = await client.delete(f"/api/v1/users/{stranger.user_id}", headers=admin.headers())
    assert response.status == 404 and response.json["code"] == "USER_NOT_FOUND"
