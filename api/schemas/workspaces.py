"""Workspace requests and responses (/api/v1/workspaces, /api/v1/workspace, company workspaces)."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.auth import PermissionName, RoleName
from api.schemas.common import Email, RequestBody, Resource, Timestamp, page_query, text
from models.workspaces import OwnershipTransfer as OwnershipTransferRow
from models.workspaces import Workspace as WorkspaceRow

NetworkType = Literal["mainnet", "testnet"]
WorkspaceName = text(max_length=200)


class WorkspaceCreate(RequestBody):
    name: WorkspaceName = Field(description="Display name, 1 to 200 characters.")
    network_type: NetworkType = Field(description="The workspace sees only currencies of this network type.")
    owner_email: Email | None = Field(None, description="Invite this person as the workspace's first owner "
                                                        "(they accept with the emailed token).")


class Workspace(Resource):
    id: uuid.UUID
    company_id: uuid.UUID
    name: str
    network_type: NetworkType
    created_at: Timestamp

    @classmethod
    def fields_of(cls, ws: WorkspaceRow) -> dict:
        return {"id": ws.id, "company_id": ws.company_id, "name": ws.name,
                "network_type": ws.network_type, "created_at": ws.created_at}

    @classmethod
    def of(cls, ws: WorkspaceRow) -> "Workspace":
        return cls(**cls.fields_of(ws))


class WorkspaceWithRole(Workspace):
    """A workspace the caller has a role in."""

    role: RoleName


WorkspaceListQuery = page_query(default=100, maximum=1000, name="WorkspaceListQuery")


class WorkspaceList(Resource):
    """One page of the caller's workspaces, oldest first."""

    workspaces: list[WorkspaceWithRole]
    total: int = Field(ge=0)
    limit: int = Field(ge=1)
    offset: int = Field(ge=0)


class CurrentWorkspace(WorkspaceWithRole):
    """The selected workspace with the caller's role and that role's permissions."""

    permissions: list[PermissionName] = Field(description="Sorted by name.")


OwnershipTransferStatus = Literal["pending", "accepted", "declined", "cancelled", "expired"]


class OwnershipTransferStart(RequestBody):
    new_owner_id: uuid.UUID = Field(description="The member who is to become owner; they must accept.")


class OwnershipTransfer(Resource):
    """A transfer of the workspace's ownership: the owner starts it, the named member accepts it."""

    id: uuid.UUID
    workspace_id: uuid.UUID
    from_user_id: uuid.UUID = Field(description="The owner who started it.")
    to_user_id: uuid.UUID = Field(description="The member who becomes owner on accepting.")
    status: OwnershipTransferStatus
    expires_at: Timestamp
    created_at: Timestamp
    decided_at: Timestamp | None

    @classmethod
    def of(cls, transfer: OwnershipTransferRow) -> "OwnershipTransfer":
        return cls(id=transfer.id, workspace_id=transfer.workspace_id,
                   from_user_id=transfer.from_user_id, to_user_id=transfer.to_user_id,
                   status=transfer.status, expires_at=transfer.expires_at,
                   created_at=transfer.created_at, decided_at=transfer.decided_at)
