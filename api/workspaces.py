"""Workspaces: the caller's list and the one selected by X-Workspace-Id."""

from __future__ import annotations

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json
from sanic_ext import openapi

from api.context import iso, principal, workspace
from domain import workspaces
from domain.permissions import Permission
from models.workspaces import Workspace

bp = Blueprint("workspaces", url_prefix="/api/v1")


def serialize(ws: Workspace) -> dict:
    return {"id": str(ws.id), "company_id": str(ws.company_id), "name": ws.name,  # type: ignore[attr-defined]
            "network_type": ws.network_type, "created_at": iso(ws.created_at)}


@bp.get("/workspaces")
@openapi.summary("Workspaces the caller has a role in")
@openapi.secured("BearerAuth")
async def list_workspaces(request: Request) -> HTTPResponse:
    caller = await principal(request)
    items = await workspaces.list_workspaces(principal=caller)
    return json({"workspaces": [dict(serialize(w), role=caller.accesses[w.id].role) for w in items]})


@bp.get("/workspace")
@openapi.summary("The workspace selected by X-Workspace-Id")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def current_workspace(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    access = caller.require(ws.id, Permission.VIEW_WORKSPACE)
    return json(dict(serialize(ws), role=access.role,
                     permissions=sorted(p.value for p in access.permissions)))
