"""Users, roles and permissions: nobody grants more than they hold, OWNER is never granted,
people are invited and accept, removed members lose their tokens and devices."""

from __future__ import annotations

import base64
import re

from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from domain import users
from models.audit import AuditEntry
from models.auth import Device
from models.users import Invitation, User, WorkspaceMember
from tests.support.approvals import make_owner
from tests.support.callers import Caller, make_caller, make_workspace
from tests.support.mail import invitation_token, queued_emails

ROLES = ["OWNER", "ADMIN", "NON_SIGNING_ADMIN", "SIGNER", "APPROVER", "EDITOR", "VIEWER"]
#: What each role may grant (the rule: a subset of its own permissions, never OWNER), written
#: out rather than computed, so that the table in domain/permissions.py is checked against it.
MAY_GRANT = {
    "OWNER": {"ADMIN", "NON_SIGNING_ADMIN", "SIGNER", "APPROVER", "EDITOR", "VIEWER"},
    "ADMIN": {"ADMIN", "NON_SIGNING_ADMIN", "SIGNER", "APPROVER", "EDITOR", "VIEWER"},
    # A non-signing admin cannot make signers: SIGN_TRANSACTION is not its own.
    "NON_SIGNING_ADMIN": {"NON_SIGNING_ADMIN", "APPROVER", "EDITOR", "VIEWER"},
}
MATRIX = [(caller, granted) for caller in ROLES for granted in ROLES]


def _public_key() -> str:
    return base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()


def _expected(caller: str, granted: str) -> tuple[int, str | None]:
    if caller not in MAY_GRANT:
        return 403, "PERMISSION_DENIED"  # no MANAGE_USERS at all
    return (201, None) if granted in MAY_GRANT[caller] else (403, "ROLE_NOT_GRANTABLE")


async def _caller(role: str) -> Caller:
    """A caller with ``role`` in a workspace of its own (OWNER is the workspace's first owner, a
    person signed in on the device the operator confirmed)."""
    return await make_owner() if role == "OWNER" else await make_caller(role=role)


async def test_creating_an_api_user_follows_the_grant_rule_for_every_caller_and_role(client):
    for caller_role in ROLES:
        # Given a caller with this role
        caller = await _caller(caller_role)
        for granted in ROLES:
            users_before = await User.all().count()
            # When it creates an API user with each role
            _, response = await client.post("/api/v1/users/api", headers=caller.headers(),
                                            json={"name": f"bot-{granted.lower()}", "role": granted,
                                                  "public_key": _public_key()})
            # Then it succeeds exactly when the role is a subset of its own, and never for OWNER
            status, code = _expected(caller_role, granted)
            assert response.status == status, (caller_role, granted, response.json)
            if code is None:
                assert response.json["role"] == granted
            else:
                assert response.json["code"] == code, (caller_role, granted)
                assert await User.all().count() == users_before  # nothing written


async def test_inviting_follows_the_grant_rule_for_every_caller_and_role(client):
    for caller_role in ROLES:
        caller = await _caller(caller_role)
        for index, granted in enumerate(ROLES):
            _, response = await client.post("/api/v1/users", headers=caller.headers(),
                                            json={"email": f"p{index}-{caller_role.lower()}@acme.test",
                                                  "role": granted})
            status, code = _expected(caller_role, granted)
            assert response.status == status, (caller_role, granted, response.json)
            if code is not None:
                assert response.json["code"] == code
    # And no invitation to OWNER exists anywhere
    assert not await Invitation.filter(role="OWNER").exists()


async def test_changing_a_role_follows_the_grant_rule_for_every_caller_and_role(client):
    for caller_role in ROLES:
        caller = await _caller(caller_role)
        target = await make_caller(role="VIEWER", workspace_id=caller.workspace_id)
        for granted in ROLES:
            # (each change starts from VIEWER, which every manager may act on)
            await WorkspaceMember.filter(user_id=target.user_id).update(role="VIEWER")
            _, response = await client.put(f"/api/v1/users/{target.user_id}/role", headers=caller.headers(),
                                           json={"role": granted})
            status, code = _expected(caller_role, granted)
            expected_status = 200 if status == 201 else status
            assert response.status == expected_status, (caller_role, granted, response.json)
            member = await WorkspaceMember.get(user_id=target.user_id)
            if code is None:
                assert response.json["role"] == granted and member.role == granted
            else:
                assert response.json["code"] == code and member.role == "VIEWER"


async def test_the_reported_escalation_is_closed(client):
    # Given an ADMIN and a NON_SIGNING_ADMIN (the roles that made an OWNER API user before)
    owner = await make_owner()
    for role in ("ADMIN", "NON_SIGNING_ADMIN"):
        manager = await make_caller(role=role, workspace_id=owner.workspace_id)
        # When either creates an API user with role OWNER
        _, response = await client.post("/api/v1/users/api", headers=manager.headers(),
                                        json={"name": "second-owner", "role": "OWNER", "public_key": _public_key()})
        # Then it is refused with a reason, and the workspace still has its one owner
        assert response.status == 403 and response.json["code"] == "ROLE_NOT_GRANTABLE"
        assert "ownership transfer" in response.json["details"]["reason"]
    assert await WorkspaceMember.filter(workspace_id=owner.workspace_id, role="OWNER").count() == 1
    # And the owner cannot make a second owner either
    _, by_owner = await client.post("/api/v1/users/api", headers=owner.headers(),
                                    json={"name": "x", "role": "OWNER", "public_key": _public_key()})
    assert by_owner.status == 403 and by_owner.json["code"] == "ROLE_NOT_GRANTABLE"


async def test_managers_cannot_act_on_members_above_them(client):
    owner = await make_owner()
    admin = await make_caller(role="ADMIN", workspace_id=owner.workspace_id)
    non_signing = await make_caller(role="NON_SIGNING_ADMIN", workspace_id=owner.workspace_id)
    # A non-signing admin can neither demote nor remove an ADMIN (who holds SIGN_TRANSACTION)
    _, demote = await client.put(f"/api/v1/users/{admin.user_id}/role", headers=non_signing.headers(),
                                 json={"role": "VIEWER"})
    _, remove = await client.delete(f"/api/v1/users/{admin.user_id}", headers=non_signing.headers())
    assert demote.status == 403 and demote.json["code"] == "ROLE_NOT_GRANTABLE"
    assert remove.status == 403 and remove.json["code"] == "ROLE_NOT_GRANTABLE"
    # Nobody changes the owner's role (a transfer does), nor their own
    _, owner_role = await client.put(f"/api/v1/users/{owner.user_id}/role", headers=admin.headers(),
                                     json={"role": "VIEWER"})
    _, own_role = await client.put(f"/api/v1/users/{admin.user_id}/role", headers=admin.headers(),
                                   json={"role": "VIEWER"})
    assert owner_role.status == 409 and owner_role.json["code"] == "CANNOT_CHANGE_OWNER_ROLE"
    assert own_role.status == 409 and own_role.json["code"] == "CANNOT_CHANGE_OWN_ROLE"
    # An ADMIN demotes the non-signing admin, and it is audited
    _, demoted = await client.put(f"/api/v1/users/{non_signing.user_id}/role", headers=admin.headers(),
                                  json={"role": "EDITOR"})
    assert demoted.status == 200 and demoted.json["role"] == "EDITOR"
    entry = await AuditEntry.get(action="user.role_changed", object_id=non_signing.user_id)
    assert entry.details == {"from": "NON_SIGNING_ADMIN", "to": "EDITOR"} and str(entry.actor_id) == admin.user_id


async def test_an_invitation_discloses_nothing_about_a_person_of_another_company(client):
    # Given a person of another company, with names and an account
    other = await make_workspace(name="Other Co")
    async with unit_of_work():
        person = await users.add_person(workspace_id=other.id, email="carol@other.test", role="VIEWER",
                                        first_name="Carol", last_name="Secret")
    admin = await make_caller(role="ADMIN")
    # When an admin of this company invites her address, supplying other names
    _, response = await client.post("/api/v1/users", headers=admin.headers(),
                                    json={"email": "Carol@Other.test", "role": "SIGNER", "first_name": "C"})
    # Then the answer is the invitation with what the admin supplied, and nothing of hers
    assert response.status == 201, response.json
    body = response.json
    assert set(body) == {"id", "email", "role", "first_name", "last_name", "status", "expires_at", "created_at",
                         "invited_by"}
    assert (body["email"], body["role"], body["first_name"], body["last_name"], body["status"]) == (
        "carol@other.test", "SIGNER", "C", None, "pending")
    assert str(person.user.id) not in response.text and "Secret" not in response.text
    assert body["invited_by"] == admin.user_id and body["id"] != str(person.user.id)
    # And she is not enrolled: the member list does not show her
    _, members = await client.get("/api/v1/users", headers=admin.headers())
    assert [m["email"] for m in members.json["users"] if m["email"]] == []
    # And the secret went to her address only, never to the inviter
    emails = await queued_emails("carol@other.test")
    assert len(emails) == 1 and emails[0].to == ["carol@other.test"]
    token = await invitation_token("carol@other.test")
    assert token not in response.text


async def test_the_invited_person_accepts_and_pairs_a_first_device(client):
    owner = await make_owner()
    admin = await make_caller(role="ADMIN", workspace_id=owner.workspace_id)
    _, invited = await client.post("/api/v1/users", headers=admin.headers(),
                                   json={"email": "dave@acme.test", "role": "SIGNER", "first_name": "Dave"})
    token = await invitation_token("dave@acme.test")
    # When Dave accepts with the emailed token
    _, accepted = await client.post("/api/v1/users/invitations/accept", json={"token": token})
    assert accepted.status == 200, accepted.json
    body = accepted.json
    assert body["workspace"]["id"] == owner.workspace_id and body["role"] == "SIGNER"
    # Then he is a member with the invited role, and the invitation is accepted (and single-use)
    user = await User.get(email="dave@acme.test")
    assert (await WorkspaceMember.get(user_id=user.id, workspace_id=owner.workspace_id)).role == "SIGNER"
    assert user.first_name == "Dave" and str(user.id) == body["user_id"]
    _, listed = await client.get("/api/v1/users/invitations", headers=admin.headers())
    assert [(i["id"], i["status"]) for i in listed.json["items"]] == [(invited.json["id"], "accepted")]
    _, again = await client.post("/api/v1/users/invitations/accept", json={"token": token})
    assert again.status == 400 and again.json["code"] == "INVITATION_INVALID"
    # And the pairing token registers his first device, which the owner confirms
    key = SigningKey.generate()
    _, device = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": body["pairing"]["pairing_token"], "name": "Dave's phone",
        "public_key": base64.b64encode(bytes(key.verify_key)).decode()})
    assert device.status == 201 and device.json["user_id"] == str(user.id)
    assert await AuditEntry.filter(action="user.invitation_accepted", actor_id=user.id).exists()


async def test_a_revoked_or_expired_invitation_cannot_be_accepted(client, frozen_clock):
    admin = await make_caller(role="ADMIN")
    _, invited = await client.post("/api/v1/users", headers=admin.headers(),
                                   json={"email": "erin@acme.test", "role": "VIEWER"})
    token = await invitation_token("erin@acme.test")
    _, duplicate = await client.post("/api/v1/users", headers=admin.headers(),
                                     json={"email": "erin@acme.test", "role": "VIEWER"})
    assert duplicate.status == 409 and duplicate.json["code"] == "INVITATION_PENDING"
    _, revoked = await client.delete(f"/api/v1/users/invitations/{invited.json['id']}", headers=admin.headers())
    assert revoked.status == 200 and revoked.json["status"] == "revoked"
    _, refused = await client.post("/api/v1/users/invitations/accept", json={"token": token})
    assert refused.status == 400 and refused.json["code"] == "INVITATION_INVALID"
    # A new invitation expires after 7 days
    await client.post("/api/v1/users", headers=admin.headers(), json={"email": "erin@acme.test", "role": "VIEWER"})
    emails = await queued_emails("erin@acme.test")
    assert len(emails) == 2
    frozen_clock.advance(days=7, seconds=1)
    newest = [t for t in (await _tokens("erin@acme.test")) if t != token][0]
    _, late = await client.post("/api/v1/users/invitations/accept", json={"token": newest})
    assert late.status == 400 and late.json["code"] == "INVITATION_INVALID"
    assert not await User.filter(email="erin@acme.test").exists()


async def _tokens(email: str) -> list[str]:
    return [re.search(r"\bcwi_[A-Za-z0-9_-]+", e.body).group(0) for e in await queued_emails(email)]  # type: ignore[union-attr]


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


async def test_removing_a_member_revokes_their_devices_there(client):
    # Given a member with a confirmed device in the workspace, and a membership elsewhere
    owner = await make_owner()
    signer = await make_caller(role="SIGNER", workspace_id=owner.workspace_id)
    elsewhere = await make_workspace(name="Elsewhere")
    await WorkspaceMember.create(workspace_id=elsewhere.id, user_id=signer.user_id, role="VIEWER")
    _, pairing = await client.post("/api/v2/auth/devices/pairing/initiate", headers=signer.headers(),
                                   json={"tenant_uuid": signer.workspace_id})
    key = SigningKey.generate()
    _, device = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": pairing.json["pairing_token"], "public_key": base64.b64encode(bytes(key.verify_key)).decode()})
    device_id = device.json["device_id"]
    await client.post(f"/api/v2/auth/devices/{device_id}/confirm", headers=owner.headers(),
                      json={"fingerprint": device.json["fingerprint"]})
    device_caller = Caller(user_id=device_id, signing_key=key, workspace_id=owner.workspace_id)
    _, token = await client.post("/api/v2/auth/access-token", json=device_caller.signed_request(client_type="device"))
    device_caller.token = token.json["access_token"]
    _, works = await client.get("/api/v1/workspace", headers=device_caller.headers())
    assert works.status == 200
    # When the owner removes the member from the workspace
    _, removed = await client.delete(f"/api/v1/users/{signer.user_id}", headers=owner.headers())
    assert removed.status == 204
    # Then the device is revoked: its token stops working and it cannot sign in again
    assert (await Device.get(id=device_id)).status == "revoked"
    _, after = await client.get("/api/v1/workspace", headers=device_caller.headers())
    assert after.status == 401
    _, relogin = await client.post("/api/v2/auth/access-token", json=device_caller.signed_request(client_type="device"))
    assert relogin.status == 401
    entry = await AuditEntry.get(action="user.removed", object_id=signer.user_id)
    assert entry.details["devices_revoked"] == 1


async def test_user_of_another_workspace_cannot_be_removed(client):
    admin = await make_caller(role="ADMIN")
    stranger = await make_caller(role="VIEWER")
    _, response = await client.delete(f"/api/v1/users/{stranger.user_id}", headers=admin.headers())
    assert response.status == 404 and response.json["code"] == "USER_NOT_FOUND"


async def test_the_member_list_is_paged_with_a_maximum(client):
    admin = await make_caller(role="ADMIN")
    for _ in range(3):
        await make_caller(role="VIEWER", workspace_id=admin.workspace_id)
    _, page = await client.get("/api/v1/users?limit=2&offset=1", headers=admin.headers())
    assert page.status == 200
    assert (len(page.json["users"]), page.json["total"], page.json["limit"], page.json["offset"]) == (2, 4, 2, 1)
    _, too_big = await client.get("/api/v1/users?limit=1001", headers=admin.headers())
    assert too_big.status == 400 and too_big.json["details"]["field"] == "limit"


async def test_unknown_role_and_bad_public_key_are_400(client):
    admin = await make_caller(role="ADMIN")
    _, response = await client.post("/api/v1/users", headers=admin.headers(), json={"email": "a@b.test", "role": "GOD"})
    assert response.status == 400 and response.json["details"]["field"] == "role"
    _, response = await client.post("/api/v1/users/api", headers=admin.headers(),
                                    json={"name": "x", "role": "VIEWER", "public_key": base64.b64encode(b"short").decode()})
    assert response.status == 400 and response.json["details"]["field"] == "public_key"
