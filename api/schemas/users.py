"""Workspace user requests and responses (/api/v1/users): members, invitations, API users, roles."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import Field

from api.schemas.auth import Ed25519PublicKey, RoleName
from api.schemas.common import Email, Name, Page, RequestBody, Resource, Timestamp, page_query, text
from api.schemas.devices import PairingInvitation
from api.schemas.workspaces import Workspace
from domain import users
from domain.users import Acceptance, Member
from models.users import Invitation as InvitationRow

InvitationStatus = Literal[tuple(users.INVITATION_STATUSES)]
InvitationToken = text(max_length=200)

_GRANT_RULE = ("A role whose permissions are a subset of the caller's; never OWNER, which passes only by an "
               "ownership transfer (403 ROLE_NOT_GRANTABLE otherwise).")

MemberListQuery = page_query(default=100, maximum=1000, name="MemberListQuery")


class InvitationListQuery(page_query(default=100, maximum=1000, name="_InvitationPage")):  # type: ignore[misc]  # a page_query class
    status: InvitationStatus | None = Field(None, description="Only invitations in this status.")


class UserAdd(RequestBody):
    """An invitation: the secret goes to ``email``; the answer echoes only what was sent."""

    email: Email = Field(description="The person's email (lowercased). The invitation's secret is emailed there.")
    role: RoleName = Field(description=_GRANT_RULE)
    first_name: Name | None = None
    last_name: Name | None = None


class ApiUserCreate(RequestBody):
    name: Name = Field(description="Display name of the API user, 1 to 100 characters.")
    role: RoleName = Field(description=_GRANT_RULE)
    public_key: Ed25519PublicKey = Field(description="The API user's Ed25519 public key: 32 bytes in base64.")


class RoleChange(RequestBody):
    role: RoleName = Field(description=_GRANT_RULE + " The member's current role must be such a subset "
                                                          "too; the owner's role changes only by a transfer.")


class InvitationAnswer(RequestBody):
    token: InvitationToken = Field(description="The invitation secret from the email.")


class InvitationAccept(InvitationAnswer):
    first_name: Name | None = Field(None, description="A new person's first name (default: the invitation's).")
    last_name: Name | None = Field(None, description="A new person's last name (default: the invitation's).")


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
        return cls(id=user.id, user_type=user.user_type, email=user.email,
                   first_name=user.first_name, last_name=user.last_name, api_user_name=user.api_user_name,
                   role=member.role, role_status=member.role_status, status=user.status,
                   created_at=user.created_at)


class UserList(Resource):
    """One page of members, in the order they joined."""

    users: list[WorkspaceUser]
    total: int = Field(ge=0)
    limit: int = Field(ge=1)
    offset: int = Field(ge=0)


class Invitation(Resource):
    """An invitation: what the inviter supplied, and the invitation's own state. Never anything
    about the person the address may belong to."""

    id: uuid.UUID
    email: str
    role: RoleName
    first_name: str | None
    last_name: str | None
    status: InvitationStatus
    expires_at: Timestamp
    created_at: Timestamp
    invited_by: uuid.UUID | None

    @classmethod
    def of(cls, invitation: InvitationRow) -> "Invitation":
        return cls(id=invitation.id, email=invitation.email, role=invitation.role,
                   first_name=invitation.first_name, last_name=invitation.last_name,
                   status=users.invitation_status(invitation),
                   expires_at=invitation.expires_at, created_at=invitation.created_at,
                   invited_by=invitation.invited_by_id)


class InvitationPage(Page[Invitation]):
    """One page of invitations, newest first."""


class InvitationAccepted(Resource):
    """The accepting person's membership, and a pairing token for a first device."""

    workspace: Workspace
    user_id: uuid.UUID
    role: RoleName
    pairing: PairingInvitation | None = Field(description="Register a device with it "
                                                          "(POST /api/v2/auth/devices/pairing/register); null "
                                                          "for VIEWER; for the OWNER an owner enrollment secret "
                                                          "(kind owner_enrollment).")

    @classmethod
    def of(cls, accepted: Acceptance) -> "InvitationAccepted":
        pairing = PairingInvitation.of(accepted.pairing) if accepted.pairing is not None else None
        return cls(workspace=Workspace.of(accepted.workspace), user_id=accepted.user.id, role=accepted.role,
                   pairing=pairing)
