"""Workspaces: the caller's list, the one selected by X-Workspace-Id, and its ownership transfer
(domain/ownership.py)."""

from __future__ import annotations

from sanic import Blueprint, Request

from api.context import principal, workspace
from api.contract import endpoint
from api.schemas.workspaces import (
    CurrentWorkspace,
    OwnershipTransfer,
    OwnershipTransferStart,
    Workspace,
    WorkspaceList,
    WorkspaceListQuery,
    WorkspaceWithRole,
)
from core.unit_of_work import unit_of_work
from domain import ownership, workspaces
from domain.permissions import Permission

bp = Blueprint("workspaces", url_prefix="/api/v1")


@bp.get("/workspaces")
@endpoint(summary="Workspaces the caller has a role in, with the role in each", tag="workspaces",
          query=WorkspaceListQuery, responses={200: WorkspaceList})
async def list_workspaces(request: Request, query: WorkspaceListQuery) -> WorkspaceList:
    caller = await principal(request)
    items, total = await workspaces.list_workspaces(principal=caller, limit=query.limit, offset=query.offset)  # type: ignore[attr-defined]  # a page_query class
    return WorkspaceList(workspaces=[WorkspaceWithRole(**Workspace.fields_of(w), role=caller.accesses[w.id].role)
                                     for w in items], total=total, limit=query.limit, offset=query.offset)  # type: ignore[attr-defined]  # a page_query class


@bp.get("/workspace")
@endpoint(summary="The workspace selected by X-Workspace-Id, with the caller's role and permissions "
                  "(VIEW_WORKSPACE)", tag="workspaces", responses={200: CurrentWorkspace}, workspace=True)
async def current_workspace(request: Request) -> CurrentWorkspace:
    caller, ws = await workspace(request)
    access = caller.require(ws.id, Permission.VIEW_WORKSPACE)
    return CurrentWorkspace(**Workspace.fields_of(ws), role=access.role,
                            permissions=sorted(p.value for p in access.permissions))


_TRANSFER_NOT_FOUND = {404: ["OWNERSHIP_TRANSFER_NOT_FOUND"]}


@bp.get("/workspace/ownership-transfer")
@endpoint(summary="The pending ownership transfer (its two parties, or VIEW_USERS)", tag="workspaces",
          responses={200: OwnershipTransfer}, workspace=True, errors=_TRANSFER_NOT_FOUND)
async def current_ownership_transfer(request: Request) -> OwnershipTransfer:
    caller, ws = await workspace(request)
    async with unit_of_work():
        transfer = await ownership.current_transfer(principal=caller, workspace_id=ws.id)
    return OwnershipTransfer.of(transfer)


@bp.post("/workspace/ownership-transfer")
@endpoint(summary="Owner: start transferring the ownership to another member, who must accept "
                  "(TRANSFER_OWNERSHIP)", tag="workspaces", body=OwnershipTransferStart,
          responses={201: OwnershipTransfer}, workspace=True,
          errors={404: ["USER_NOT_FOUND"], 409: ["OWNERSHIP_TRANSFER_TO_SELF", "OWNERSHIP_TRANSFER_PENDING",
                                                 "OWNERSHIP_RECIPIENT_NOT_ELIGIBLE"]})
async def start_ownership_transfer(request: Request, body: OwnershipTransferStart) -> OwnershipTransfer:
    caller, ws = await workspace(request)
    async with unit_of_work():
        transfer = await ownership.start_transfer(principal=caller, workspace_id=ws.id,
                                                  new_owner_id=body.new_owner_id)
    return OwnershipTransfer.of(transfer)


@bp.delete("/workspace/ownership-transfer")
@endpoint(summary="Owner: cancel the pending ownership transfer (TRANSFER_OWNERSHIP)", tag="workspaces",
          responses={200: OwnershipTransfer}, workspace=True, errors=_TRANSFER_NOT_FOUND)
async def cancel_ownership_transfer(request: Request) -> OwnershipTransfer:
    caller, ws = await workspace(request)
    async with unit_of_work():
        transfer = await ownership.cancel_transfer(principal=caller, workspace_id=ws.id)
    return OwnershipTransfer.of(transfer)


@bp.post("/workspace/ownership-transfer/accept")
@endpoint(summary="The named member accepts: they become OWNER, the previous owner ADMIN", tag="workspaces",
          responses={200: OwnershipTransfer}, workspace=True,
          errors={**_TRANSFER_NOT_FOUND, 403: ["NOT_TRANSFER_RECIPIENT", "OWNERSHIP_ACCEPT_DEVICE_REQUIRED"],
                  409: ["OWNERSHIP_TRANSFER_STALE", "OWNERSHIP_RECIPIENT_NOT_ELIGIBLE"]})
async def accept_ownership_transfer(request: Request) -> OwnershipTransfer:
    caller, ws = await workspace(request)
    async with unit_of_work():
        transfer = await ownership.accept_transfer(principal=caller, workspace_id=ws.id)
    return OwnershipTransfer.of(transfer)


@bp.post("/workspace/ownership-transfer/decline")
@endpoint(summary="The named member declines the ownership transfer", tag="workspaces",
          responses={200: OwnershipTransfer}, workspace=True,
          errors={**_TRANSFER_NOT_FOUND, 403: ["NOT_TRANSFER_RECIPIENT"]})
async def decline_ownership_transfer(request: Request) -> OwnershipTransfer:
    caller, ws = await workspace(request)
    async with unit_of_work():
        transfer = await ownership.decline_transfer(principal=caller, workspace_id=ws.id)
    return OwnershipTransfer.of(transfer)
