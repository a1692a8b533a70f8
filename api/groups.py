"""Groups: /api/v1/groups (bearer token and X-Workspace-Id).

Changes need MANAGE_USERS and are the gated action Manage groups (403 QUORUM_APPROVAL_REQUIRED
while its rule is on); reads need VIEW_USERS. docs/change-approvals.md.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint, gated
from api.schemas.groups import Group, GroupCreate, GroupList, GroupMembersChange, GroupUpdate
from core.unit_of_work import unit_of_work
from domain import groups

bp = Blueprint("groups", url_prefix="/api/v1/groups")

_TAG = "groups"
_NOT_FOUND = {404: ["GROUP_NOT_FOUND"]}


@bp.post("")
@endpoint(summary="Create a group of members (MANAGE_USERS; gated: Manage groups, create)", tag=_TAG,
          body=GroupCreate, responses={201: Group}, workspace=True,
          errors=gated({404: ["USER_NOT_FOUND"], 409: ["GROUP_ALREADY_EXISTS"]}))
async def create_group(request: Request, body: GroupCreate) -> Group:
    caller, ws = await workspace(request)
    async with unit_of_work():
        record = await groups.create_group(principal=caller, workspace_id=ws.id, name=body.name,
                                           threshold=body.threshold, member_ids=list(body.user_uuids))
    return Group.of(record)


@bp.get("")
@endpoint(summary="The workspace's groups (VIEW_USERS)", tag=_TAG, responses={200: GroupList}, workspace=True)
async def list_groups(request: Request) -> GroupList:
    caller, ws = await workspace(request)
    return GroupList(groups=[Group.of(r) for r in await groups.list_groups(principal=caller, workspace_id=ws.id)])


@bp.get("/<group_id:uuid>")
@endpoint(summary="One group (VIEW_USERS)", tag=_TAG, responses={200: Group}, workspace=True, errors=_NOT_FOUND)
async def get_group(request: Request, group_id: uuid.UUID) -> Group:
    caller, ws = await workspace(request)
    return Group.of(await groups.get_group(principal=caller, workspace_id=ws.id, group_id=group_id))


@bp.patch("/<group_id:uuid>")
@endpoint(summary="Rename a group or change its threshold (MANAGE_USERS; gated: Manage groups, update)", tag=_TAG,
          body=GroupUpdate, responses={200: Group}, workspace=True,
          errors=gated({**_NOT_FOUND, 409: ["GROUP_ALREADY_EXISTS"]}))
async def update_group(request: Request, group_id: uuid.UUID, body: GroupUpdate) -> Group:
    caller, ws = await workspace(request)
    async with unit_of_work():
        record = await groups.update_group(principal=caller, workspace_id=ws.id, group_id=group_id, name=body.name,
                                           threshold=body.threshold)
    return Group.of(record)


@bp.delete("/<group_id:uuid>")
@endpoint(summary="Delete a group no enabled rule uses (MANAGE_USERS; gated: Manage groups, delete)", tag=_TAG,
          responses={204: None}, workspace=True,
          errors=gated({**_NOT_FOUND, 409: ["GROUP_IN_USE"]}))
async def delete_group(request: Request, group_id: uuid.UUID) -> None:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await groups.delete_group(principal=caller, workspace_id=ws.id, group_id=group_id)


async def _members(request: Request, group_id: uuid.UUID, body: GroupMembersChange, *, add: bool) -> Group:
    caller, ws = await workspace(request)
    async with unit_of_work():
        record = await groups.change_members(principal=caller, workspace_id=ws.id, group_id=group_id,
                                             user_ids=list(body.user_uuids), add=add)
    return Group.of(record)


@bp.post("/<group_id:uuid>/members")
@endpoint(summary="Add members (MANAGE_USERS; gated: Manage groups, add_members); members already there change "
                  "nothing", tag=_TAG, body=GroupMembersChange, responses={200: Group}, workspace=True,
          errors=gated({404: ["GROUP_NOT_FOUND", "USER_NOT_FOUND"]}))
async def add_group_members(request: Request, group_id: uuid.UUID, body: GroupMembersChange) -> Group:
    return await _members(request, group_id, body, add=True)


@bp.post("/<group_id:uuid>/members/remove")
@endpoint(summary="Remove members (MANAGE_USERS; gated: Manage groups, remove_members)", tag=_TAG,
          body=GroupMembersChange, responses={200: Group}, workspace=True, errors=gated(_NOT_FOUND))
async def remove_group_members(request: Request, group_id: uuid.UUID, body: GroupMembersChange) -> Group:
    return await _members(request, group_id, body, add=False)
