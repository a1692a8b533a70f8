"""Workspace users: /api/v1/users (list, add a person, create an API user, remove)."""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, empty, json
from sanic_ext import openapi

from api.context import iso, json_body, workspace
from core.unit_of_work import unit_of_work
from domain import users
from domain import validation as v
from domain.users import Member

bp = Blueprint("users", url_prefix="/api/v1/users")


def serialize(member: Member) -> dict:
    user = member.user
    return {
        "id": str(user.id),
        "user_type": user.user_type,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "api_user_name": user.api_user_name,
        "role": member.role,
        "role_status": member.role_status,
        "status": user.status,
        "created_at": iso(user.created_at),
    }


@bp.get("")
@openapi.summary("Members of the workspace (VIEW_USERS)")
@openapi.secured("BearerAuth")
async def list_users(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    members = await users.list_members(principal=caller, workspace_id=ws.id)
    return json({"users": [serialize(m) for m in members]})


@bp.post("")
@openapi.summary("Add a person with a role (MANAGE_USERS)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"email": str, "role": str, "first_name": str, "last_name": str}})
async def add_user(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    email = v.email(body)
    role = v.choice(body, "role", users.WORKSPACE_ROLES)
    first_name = v.string(body, "first_name", required=False, max_len=100)
    last_name = v.string(body, "last_name", required=False, max_len=100)
    async with unit_of_work():
        member = await users.add_user(principal=caller, workspace_id=ws.id, email=email, role=role,  # type: ignore[arg-type]
                                      first_name=first_name, last_name=last_name)
    return json(serialize(member), status=201)


@bp.post("/api")
@openapi.summary("Create an API user with an uploaded Ed25519 public key (MANAGE_USERS)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"name": str, "role": str, "public_key": str}})
async def create_api_user(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    name = v.string(body, "name", max_len=100)
    role = v.choice(body, "role", users.WORKSPACE_ROLES)
    public_key = v.base64_bytes(body, "public_key", length=32)
    async with unit_of_work():
        member = await users.create_api_user(principal=caller, workspace_id=ws.id, name=name,  # type: ignore[arg-type]
                                             role=role, public_key=public_key)  # type: ignore[arg-type]
    return json(serialize(member), status=201)


@bp.delete("/<user_id:uuid>")
@openapi.summary("Remove a user from the workspace (MANAGE_USERS); their tokens stop working")
@openapi.secured("BearerAuth")
async def remove_user(request: Request, user_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await users.remove_user(principal=caller, workspace_id=ws.id, user_id=user_id)
    return empty()
