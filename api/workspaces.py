"""Workspaces: the caller's list and the one selected by X-Workspace-Id."""

from __future__ import annotations

from sanic import Blueprint, Request

from api.context import principal, workspace
from api.contract import endpoint
from api.schemas.workspaces import CurrentWorkspace, Workspace, WorkspaceList, WorkspaceWithRole
from domain import workspaces
from domain.permissions import Permission

bp = Blueprint("workspaces", url_prefix="/api/v1")


@bp.get("/workspaces")
@endpoint(summary="Workspaces the caller has a role in, with the role in each", tag="workspaces",
          responses={200: WorkspaceList})
async def list_workspaces(request: Request) -> WorkspaceList:
    caller = await principal(request)
    items = await workspaces.list_workspaces(principal=caller)
    return WorkspaceList(workspaces=[WorkspaceWithRole(**Workspace.fields_of(w), role=caller.accesses[w.id].role)
                                     for w in items])


@bp.get("/workspace")
@endpoint(summary="The workspace selected by X-Workspace-Id, with the caller's role and permissions "
                  "(VIEW_WORKSPACE)", tag="workspaces", responses={200: CurrentWorkspace}, workspace=True)
async def current_workspace(request: Request) -> CurrentWorkspace:
    caller, ws = await workspace(request)
    access = caller.require(ws.id, Permission.VIEW_WORKSPACE)
    return CurrentWorkspace(**Workspace.fields_of(ws), role=access.role,
                            permissions=sorted(p.value for p in access.permissions))
