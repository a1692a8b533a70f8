"""Groups (/api/v1/groups): members, thresholds, active members, and Manage groups as a gated action."""

from __future__ import annotations

import uuid

from core.unit_of_work import unit_of_work
from domain import groups
from domain.change_approvals import requests
from models.change_approvals import ChangeRequest
from models.groups import GroupMember
from tests.support.approvals import make_person, make_scene, set_rule
from tests.support.callers import make_caller


async def test_create_rename_members_and_delete(client):
    # Given a workspace with people of several roles and an API user
    scene = await make_scene(admins=1)
    viewer = await make_person(workspace_id=scene.workspace_id, role="VIEWER")
    api_signer = await make_caller(role="SIGNER", workspace_id=scene.workspace_id)
    h = scene.admin_api.headers()
    # When a group is created with an administrator, a viewer and an API user
    _, created = await client.post("/api/v1/groups", headers=h, json={
        "name": "Treasury", "threshold": 1,
        "user_uuids": [scene.admins[0].person_id, viewer.person_id, api_signer.user_id]})
    assert created.status == 201, created.json
    group_id = created.json["group_uuid"]
    # Then all three are members, but only the administrator counts in group mode
    assert len(created.json["member_uuids"]) == 3
    assert created.json["active_member_uuids"] == [scene.admins[0].person_id]
    assert await groups.active_member_ids(workspace_id=uuid.UUID(scene.workspace_id),
                                          group_id=uuid.UUID(group_id)) == [uuid.UUID(scene.admins[0].person_id)]
    assert await groups.active_member_ids(workspace_id=uuid.UUID(scene.workspace_id), group_id=uuid.uuid4()) is None
    # A second group with the same name (any case) is refused
    _, same = await client.post("/api/v1/groups", headers=h, json={"name": "treasury"})
    assert same.status == 409 and same.json["code"] == "GROUP_ALREADY_EXISTS"
    # Rename and change the threshold
    _, renamed = await client.patch(f"/api/v1/groups/{group_id}", headers=h, json={"name": "Ops", "threshold": 1})
    assert renamed.status == 200 and renamed.json["name"] == "Ops"
    # Add a member already there: nothing changes; remove one
    _, added = await client.post(f"/api/v1/groups/{group_id}/members", headers=h,
                                 json={"user_uuids": [viewer.person_id, scene.owner.person_id]})
    assert added.status == 200 and len(added.json["member_uuids"]) == 4
    _, removed = await client.post(f"/api/v1/groups/{group_id}/members/remove", headers=h,
                                   json={"user_uuids": [viewer.person_id]})
    assert removed.status == 200 and viewer.person_id not in removed.json["member_uuids"]
    # A stranger is not a member of the workspace
    _, stranger = await client.post(f"/api/v1/groups/{group_id}/members", headers=h,
                                    json={"user_uuids": [str(uuid.uuid4())]})
    assert stranger.status == 404 and stranger.json["code"] == "USER_NOT_FOUND"
    # A group an enabled rule uses cannot be deleted
    await set_rule(scene.workspace_id, "manage_groups", mode="QUORUM_APPROVAL_MODE_SPECIFIC_GROUP",
                   group_id=group_id)
    _, in_use = await client.delete(f"/api/v1/groups/{group_id}", headers=h)
    assert in_use.status == 409 and in_use.json["code"] == "GROUP_IN_USE"
    await set_rule(scene.workspace_id, "manage_groups", enabled=False)
    _, deleted = await client.delete(f"/api/v1/groups/{group_id}", headers=h)
    assert deleted.status == 204
    _, listed = await client.get("/api/v1/groups", headers=h)
    assert listed.json["groups"] == []


async def test_approved_member_addition_fails_when_the_user_is_already_in_the_group(client):
    # Given Manage groups needs the owner, and a pending addition of an administrator
    scene = await make_scene(admins=1)
    h = scene.admin_api.headers()
    _, group = await client.post("/api/v1/groups", headers=h, json={"name": "G"})
    await set_rule(scene.workspace_id, "manage_groups")
    _, gated = await client.post(f"/api/v1/groups/{group.json['group_uuid']}/members", headers=h,
                                 json={"user_uuids": [scene.admins[0].person_id]})
    assert gated.status == 403 and gated.json["details"]["operation"] == "add_members"
    request_id = gated.json["details"]["approval_request_uuid"]
    # And the display names the group and the users
    _, card = await client.get(f"/api/v2/admin/tenants/{scene.workspace_id}/change-approvals/{request_id}",
                               headers=scene.owner.headers(workspace=None))
    assert card.json["request"]["display"]["group_name"] == "G"
    assert [u["user_uuid"] for u in card.json["request"]["display"]["users"]] == [scene.admins[0].person_id]
    # When the user is added meanwhile (by a platform administrator's change, which bypasses approval)
    await GroupMember.create(group_id=group.json["group_uuid"], user_id=scene.admins[0].person_id)
    _, approved = await client.post(f"/api/v2/admin/tenants/{scene.workspace_id}/change-approvals/{request_id}/approve",
                                    headers=scene.owner.headers(workspace=None))
    assert approved.json["request"]["status"] == "APPROVED"
    # Then the approved change fails: the user is already in the group
    async with unit_of_work():
        assert await requests.apply_request(request_id=request_id) == "FAILED"
    failed = await ChangeRequest.get(id=request_id)
    assert failed.failure_code == "GROUP_MEMBER_EXISTS"
