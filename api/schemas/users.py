"""Workspace user requests and responses (/api/v1/users)."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.auth import Ed25519PublicKey, RoleName
from api.schemas.common import Email, Name, RequestBody, Resource, Timestamp
from domain.users import Member


class UserAdd(RequestBody):
    email: Email = Field(description="The person's email (lowercased); an existing person is added.")
    role: RoleName
    first_name: Name | None = None
    last_name: Name | None = None


class ApiUserCreate(RequestBody):
    name: Name = Field(description="Display name of the API user, 1 to 100 characters.")
    role: RoleName
    public_key: Ed25519PublicKey = Field(description="The API user's Ed25519 public key: 32 bytes in base64.")


class WorkspaceUser(Resource):
    """A member of the workspace: a person (``user``) or an API user (``api_user``)."""

    id: uuid.UUID
    user_type: Literal["user", "api_user"]
    email: str | None = Field(description="A person's email; null for an API user.")
    first_name: str | None
    last_name: str | None
    api_user_name: str | None = Field(description="An API user's name; null for a person.")
    role: RoleName
    role_status: str = Field(description="ROLE_STATUS_ACTIVE while the role is in force.")
    status: Literal["active", "removed"]
    created_at: Timestamp

    @classmethod
    def of(cls, member: Member) -> "WorkspaceUser":
        user = member.user
        return cls(id=user.id, user_type=user.user_type, email=user.email,  # type: ignore[arg-type]
                   first_name=user.first_name, last_name=user.last_name, api_user_name=user.api_user_name,
                   role=member.role, role_status=member.role_status, status=user.status,  # type: ignore[arg-type]
                   created_at=user.created_at)


class UserList(Resource):
    users: list[WorkspaceUser]
