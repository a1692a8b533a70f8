"""Workspace users: /api/v1/users (list, add a person, create an API user, remove)."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.auth import key_bytes
from api.schemas.users import ApiUserCreate, UserAdd, UserList, WorkspaceUser
from core.unit_of_work import unit_of_work
from domain import users

bp = Blueprint("users", url_prefix="/api/v1/users")


@bp.get("")
@endpoint(summary="Members of the workspace (VIEW_USERS)", tag="users", responses={200: UserList}, workspace=True)
async def list_users(request: Request) -> UserList:
    caller, ws = await workspace(request)
    members = await users.list_members(principal=caller, workspace_id=ws.id)
    return UserList(users=[WorkspaceUser.of(m) for m in members])


@bp.post("")
@endpoint(summary="Add a person with a role (MANAGE_USERS)", tag="users", body=UserAdd,
          responses={201: WorkspaceUser}, workspace=True, errors={409: ["USER_ALREADY_MEMBER"]})
async def add_user(request: Request, body: UserAdd) -> WorkspaceUser:
    caller, ws = await workspace(request)
    async with unit_of_work():
        member = await users.add_user(principal=caller, workspace_id=ws.id, email=body.email, role=body.role,
                                      first_name=body.first_name, last_name=body.last_name)
    return WorkspaceUser.of(member)


@bp.post("/api")
@endpoint(summary="Create an API user with an uploaded Ed25519 public key (MANAGE_USERS)", tag="users",
          body=ApiUserCreate, responses={201: WorkspaceUser}, workspace=True,
          errors={400: ["VALIDATION_ERROR"]})
async def create_api_user(request: Request, body: ApiUserCreate) -> WorkspaceUser:
    caller, ws = await workspace(request)
    async with unit_of_work():
        member = await users.create_api_user(principal=caller, workspace_id=ws.id, name=body.name, role=body.role,
                                             public_key=key_bytes(body.public_key))
    return WorkspaceUser.of(member)


@bp.delete("/<user_id:uuid>")
@endpoint(summary="Remove a user from the workspace (MANAGE_USERS); their tokens stop working", tag="users",
          responses={204: None}, workspace=True,
          errors={404: ["USER_NOT_FOUND"], 409: ["CANNOT_REMOVE_OWNER", "CANNOT_REMOVE_SELF"]})
async def remove_user(request: Request, user_id: uuid.UUID) -> None:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await users.remove_user(principal=caller, workspace_id=ws.id, user_id=user_id)
