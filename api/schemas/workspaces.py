"""Workspace requests and responses (/api/v1/workspaces, /api/v1/workspace, company workspaces)."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.auth import PermissionName, RoleName
from api.schemas.common import RequestBody, Resource, Timestamp, text
from models.workspaces import Workspace as WorkspaceRow

NetworkType = Literal["mainnet", "testnet"]
WorkspaceName = text(max_length=200)


class WorkspaceCreate(RequestBody):
    name: WorkspaceName = Field(description="Display name, 1 to 200 characters.")
    network_type: NetworkType = Field(description="The workspace sees only currencies of this network type.")


class Workspace(Resource):
    id: uuid.UUID
    company_id: uuid.UUID
    name: str
    network_type: NetworkType
    created_at: Timestamp

    @classmethod
    def fields_of(cls, ws: WorkspaceRow) -> dict:
        return {"id": ws.id, "company_id": ws.company_id, "name": ws.name,  # type: ignore[attr-defined]
                "network_type": ws.network_type, "created_at": ws.created_at}

    @classmethod
    def of(cls, ws: WorkspaceRow) -> "Workspace":
        return cls(**cls.fields_of(ws))


class WorkspaceWithRole(Workspace):
    """A workspace the caller has a role in."""

    role: RoleName


class WorkspaceList(Resource):
    workspaces: list[WorkspaceWithRole]


class CurrentWorkspace(WorkspaceWithRole):
    """The selected workspace with the caller's role and that role's permissions."""

    permissions: list[PermissionName] = Field(description="Sorted by name.")
