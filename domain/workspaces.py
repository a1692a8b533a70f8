"""Workspaces (tenants): created by platform staff or the operator CLI, each mainnet or testnet."""

from __future__ import annotations

import uuid

from domain import audit, users
from domain.auth import Principal
from domain.errors import NotFound
from domain.permissions import Permission, WorkspaceRole
from models.companies import Company
from models.workspaces import Workspace

NETWORK_TYPES = frozenset({"mainnet", "testnet"})


async def create_workspace(
    *, principal: Principal | None, company_id: uuid.UUID, name: str, network_type: str,
    owner_email: str | None = None,
) -> Workspace:
    """Create a workspace; ``owner_email`` invites its first owner (they accept by email)."""
    if principal is not None:
        principal.require_platform(Permission.MANAGE_COMPANIES)
    company = await Company.get_or_none(id=company_id)
    if company is None:
        raise NotFound("company not found", code="COMPANY_NOT_FOUND")
    workspace = await Workspace.create(company=company, name=name, network_type=network_type)
    await audit.record(action="workspace.created", object_type="workspace", object_id=workspace.id,
                       actor_id=principal.user.id if principal else None, workspace_id=workspace.id,
                       company_id=company.id, details={"name": name, "network_type": network_type})
    if owner_email is not None:
        # The platform's staff never become members: the first owner is invited and accepts.
        await users.invite(principal=None, workspace_id=workspace.id, email=owner_email, role=WorkspaceRole.OWNER)
    return workspace


async def list_workspaces(*, principal: Principal, limit: int = 100, offset: int = 0) -> tuple[list[Workspace], int]:
    """One page of the workspaces the caller has a role in, oldest first, and their number."""
    query = Workspace.filter(id__in=list(principal.accesses))
    return await query.order_by("created_at", "id").offset(offset).limit(limit), await query.count()
