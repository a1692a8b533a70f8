"""X-Workspace-Id selects the workspace; a foreign or unknown one is indistinguishable."""

from __future__ import annotations

import base64
import json
import uuid

import pytest
from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from domain import users
from domain.errors import ValidationFailed
from models.audit import AuditEntry
from models.users import WorkspaceMember
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.approvals import make_owner, make_person
from tests.support.callers import make_caller
from tests.support.mail import invitation_token


async def test_header_selects_the_callers_workspace(client):
    caller = await make_caller(role="VIEWER")
    _, response = await client.get("/api/v1/workspace", headers=caller.headers())
    assert response.status == 200
    assert response.json["id"] == caller.workspace_id and response.json["role"] == "VIEWER"
    assert response.json["permissions"] == ["VIEW_WORKSPACE"]


async def test_missing_header_with_one_workspace_uses_it(client):
    caller = await make_caller()
    _, response = await client.get("/api/v1/workspace", headers=caller.headers(workspace=None))
    assert response.status == 200 and response.json["id"] == caller.workspace_id


async def test_missing_header_with_several_workspaces_is_400(client):
    from core.unit_of_work import unit_of_work
    from domain import companies, workspaces
    from models.users import WorkspaceMember

    caller = await make_caller()
    async with unit_of_work():
        company = await companies.create_company(principal=None, name="B", email="b@b.test")
        other = await workspaces.create_workspace(principal=None, company_id=company.id, name="Second",
                                                  network_type="mainnet")
        await WorkspaceMember.create(workspace=other, user_id=caller.user_id, role="VIEWER")
    _, response = await client.get("/api/v1/workspace", headers=caller.headers(workspace=None))
    assert response.status == 400 and response.json["code"] == "WORKSPACE_REQUIRED"
    _, listed = await client.get("/api/v1/workspaces", headers=caller.headers(workspace=None))
    assert {w["id"] for w in listed.json["workspaces"]} == {caller.workspace_id, str(other.id)}


async def test_foreign_and_unknown_workspaces_get_the_same_404(client):
    alice = await make_caller()
    bob = await make_caller()  # another company and workspace
    _, foreign = await client.get("/api/v1/workspace", headers=alice.headers(workspace=bob.workspace_id))
    _, unknown = await client.get("/api/v1/workspace", headers=alice.headers(workspace=str(uuid.uuid4())))
    assert foreign.status == unknown.status == 404
    assert foreign.json == unknown.json == {"code": "WORKSPACE_NOT_FOUND", "error": "workspace not found",
                                            "details": {}}


async def test_malformed_workspace_header_is_400(client):
    caller = await make_caller()
    _, response = await client.get("/api/v1/workspace", headers=caller.headers(workspace="not-a-uuid"))
    assert response.status == 400 and response.json["code"] == "INVALID_WORKSPACE_ID"


async def test_ownership_passes_only_by_a_transfer_the_new_owner_accepts(client, frozen_clock):
    # Given a workspace with its owner, an admin and a signer (people with paired devices)
    owner = await make_owner()
    admin = await make_person(workspace_id=owner.workspace_id, role="ADMIN")
    signer = await make_person(workspace_id=owner.workspace_id, role="SIGNER")
    path = "/api/v1/workspace/ownership-transfer"
    # An admin cannot start a transfer
    _, denied = await client.post(path, headers=admin.headers(), json={"new_owner_id": admin.user_id})
    assert denied.status == 403 and denied.json["details"]["permission"] == "TRANSFER_OWNERSHIP"
    # When the owner starts one to the signer
    _, started = await client.post(path, headers=owner.headers(), json={"new_owner_id": signer.user_id})
    assert started.status == 201, started.json
    assert (started.json["status"], started.json["to_user_id"]) == ("pending", signer.user_id)
    # Then nothing changed yet, a second one is refused, and only the signer can accept it
    assert (await WorkspaceMember.get(user_id=signer.user_id)).role == "SIGNER"
    _, second = await client.post(path, headers=owner.headers(), json={"new_owner_id": admin.user_id})
    assert second.status == 409 and second.json["code"] == "OWNERSHIP_TRANSFER_PENDING"
    _, by_admin = await client.post(f"{path}/accept", headers=admin.headers())
    assert by_admin.status == 403 and by_admin.json["code"] == "NOT_TRANSFER_RECIPIENT"
    _, seen = await client.get(path, headers=signer.headers())
    assert seen.status == 200 and seen.json["id"] == started.json["id"]
    # When the signer accepts
    _, accepted = await client.post(f"{path}/accept", headers=signer.headers())
    assert accepted.status == 200 and accepted.json["status"] == "accepted"
    # Then the signer is the one owner, the previous owner an ADMIN; audited and announced by webhook event
    roles = {str(m.user_id): m.role for m in await WorkspaceMember.filter(workspace_id=owner.workspace_id)}
    assert roles == {owner.user_id: "ADMIN", admin.user_id: "ADMIN", signer.user_id: "OWNER"}
    entry = await AuditEntry.get(action="ownership.transferred")
    assert str(entry.actor_id) == signer.user_id and entry.details["from_user_id"] == owner.user_id
    event = await WebhookEvent.get(workspace_id=owner.workspace_id, type="workspace.owner_changed")
    assert json.loads(event.payload)["data"]["owner_id"] == signer.user_id
    # And the new owner holds the owner's permissions, the previous one no longer
    _, previous = await client.post(path, headers=owner.headers(), json={"new_owner_id": admin.user_id})
    assert previous.status == 403


async def test_a_transfer_can_be_declined_cancelled_and_expires(client, frozen_clock):
    owner = await make_owner()
    signer = await make_person(workspace_id=owner.workspace_id, role="SIGNER")
    path = "/api/v1/workspace/ownership-transfer"
    _, to_self = await client.post(path, headers=owner.headers(), json={"new_owner_id": owner.user_id})
    assert to_self.status == 409 and to_self.json["code"] == "OWNERSHIP_TRANSFER_TO_SELF"
    _, stranger = await client.post(path, headers=owner.headers(), json={"new_owner_id": str(uuid.uuid4())})
    assert stranger.status == 404 and stranger.json["code"] == "USER_NOT_FOUND"
    for ending, caller, method, suffix, status in (("declined", signer, "POST", "/decline", "declined"),
                                                   ("cancelled", owner, "DELETE", "", "cancelled")):
        _, started = await client.post(path, headers=owner.headers(), json={"new_owner_id": signer.user_id})
        assert started.status == 201
        _, ended = await client.request(method, path + suffix, headers=caller.headers())
        assert ended.status == 200 and ended.json["status"] == status, ending
        _, gone = await client.get(path, headers=owner.headers())
        assert gone.status == 404 and gone.json["code"] == "OWNERSHIP_TRANSFER_NOT_FOUND"
    # A transfer not accepted within 72 hours expires
    await client.post(path, headers=owner.headers(), json={"new_owner_id": signer.user_id})
    frozen_clock.advance(hours=72, seconds=1)
    await signer.login()
    _, late = await client.post(f"{path}/accept", headers=signer.headers())
    assert late.status == 404 and late.json["code"] == "OWNERSHIP_TRANSFER_NOT_FOUND"
    assert (await WorkspaceMember.get(user_id=owner.user_id)).role == "OWNER"


async def test_a_workspace_created_by_platform_staff_gets_its_first_owner_by_invitation(client):
    staff = await make_caller(role="ADMIN", platform_admin=True)
    workspace = await Workspace.get(id=staff.workspace_id)
    _, created = await client.post(f"/api/v1/company/{workspace.company_id}/workspaces", headers=staff.headers(),
                                   json={"name": "Treasury", "network_type": "testnet",
                                         "owner_email": "founder@acme.test"})
    assert created.status == 201, created.json
    # The platform admin is not a member; the invited person accepts and is the first owner
    token = await invitation_token("founder@acme.test")
    _, accepted = await client.post("/api/v1/users/invitations/accept", json={"token": token})
    assert accepted.status == 200 and accepted.json["role"] == "OWNER"
    assert [m.role for m in await WorkspaceMember.filter(workspace_id=created.json["id"])] == ["OWNER"]


async def test_the_callers_workspaces_are_paged_with_a_maximum(client):
    caller = await make_caller(role="VIEWER")
    _, page = await client.get("/api/v1/workspaces?limit=1", headers=caller.headers(workspace=None))
    assert page.status == 200
    assert (len(page.json["workspaces"]), page.json["total"], page.json["limit"], page.json["offset"]) == (1, 1, 1, 0)
    _, too_big = await client.get("/api/v1/workspaces?limit=1001", headers=caller.headers(workspace=None))
    assert too_big.status == 400 and too_big.json["details"]["field"] == "limit"


async def test_ownership_never_goes_to_an_api_user_nor_to_a_person_without_a_paired_device(client):
    # Given an owner, an ADMIN API user, and an invited ADMIN person who has not paired a device yet
    owner = await make_owner()
    api_admin = await make_caller(role="ADMIN", workspace_id=owner.workspace_id)
    path = "/api/v1/workspace/ownership-transfer"
    _, invited = await client.post("/api/v1/users", headers=owner.headers(),
                                   json={"email": "newcomer@acme.test", "role": "ADMIN"})
    assert invited.status == 201
    _, accepted = await client.post("/api/v1/users/invitations/accept",
                                    json={"token": await invitation_token("newcomer@acme.test")})
    newcomer_id = accepted.json["user_id"]
    # When the owner starts a transfer to the API user, or to the person without a device
    _, to_key = await client.post(path, headers=owner.headers(), json={"new_owner_id": api_admin.user_id})
    _, to_deviceless = await client.post(path, headers=owner.headers(), json={"new_owner_id": newcomer_id})
    # Then both are refused, nothing is pending, and the owner is unchanged
    assert to_key.status == 409 and to_key.json["code"] == "OWNERSHIP_RECIPIENT_NOT_ELIGIBLE"
    assert "API user" in to_key.json["details"]["reason"]
    assert to_deviceless.status == 409 and to_deviceless.json["code"] == "OWNERSHIP_RECIPIENT_NOT_ELIGIBLE"
    _, none = await client.get(path, headers=owner.headers())
    assert none.status == 404
    # And no API user can be made owner, not even by the operator's own tooling
    key = base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()
    _, as_owner = await client.post("/api/v1/users/api", headers=owner.headers(),
                                    json={"name": "robot", "role": "OWNER", "public_key": key})
    assert as_owner.status == 403 and as_owner.json["code"] == "ROLE_NOT_GRANTABLE"
    with pytest.raises(ValidationFailed) as refused:
        async with unit_of_work():
            await users.create_api_user(principal=None, workspace_id=uuid.UUID(owner.workspace_id), name="robot",
                                        role="OWNER", public_key=bytes(SigningKey.generate().verify_key))
    assert refused.value.code == "OWNER_MUST_BE_A_PERSON"
    assert [m.role for m in await WorkspaceMember.filter(workspace_id=owner.workspace_id, role="OWNER")] == ["OWNER"]
