"""X-Workspace-Id selects the workspace; a foreign or unknown one is indistinguishable."""

from __future__ import annotations

import uuid

from tests.support.callers import make_caller


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
