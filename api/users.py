"""Workspace users: /api/v1/users (members, invitations by email, API users, role changes, removal).

docs/users.md has the rules: nobody grants more than they hold, OWNER passes only by an
ownership transfer (/api/v1/workspace/ownership-transfer), people are invited and accept.
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint, gated
from api.schemas.auth import key_bytes
from api.schemas.users import (
    ApiUserCreate,
    Invitation,
    InvitationAccept,
    InvitationAccepted,
    InvitationAnswer,
    InvitationListQuery,
    InvitationPage,
    MemberListQuery,
    RoleChange,
    UserAdd,
    UserList,
    WorkspaceUser,
)
from core.unit_of_work import unit_of_work
from domain import users

bp = Blueprint("users", url_prefix="/api/v1/users")

_TAG = "users"
_GRANT = {403: ["ROLE_NOT_GRANTABLE"]}
_MEMBER = {404: ["USER_NOT_FOUND"]}


@bp.get("")
@endpoint(summary="Members of the workspace, in the order they joined (VIEW_USERS)", tag=_TAG,
          query=MemberListQuery, responses={200: UserList}, workspace=True)
async def list_users(request: Request, query: MemberListQuery) -> UserList:
    caller, ws = await workspace(request)
    members, total = await users.list_members(principal=caller, workspace_id=ws.id, limit=query.limit,  # type: ignore[attr-defined]  # a page_query class
                                              offset=query.offset)  # type: ignore[attr-defined]  # a page_query class
    return UserList(users=[WorkspaceUser.of(m) for m in members], total=total, limit=query.limit, offset=query.offset)  # type: ignore[attr-defined]  # a page_query class


@bp.post("")
@endpoint(summary="Invite a person by email to a role (MANAGE_USERS); they accept with the emailed token",
          description="Nobody is enrolled until the person accepts. The answer holds only what was sent and the "
                      "invitation's own state: nothing is revealed about whoever the address belongs to.",
          tag=_TAG, body=UserAdd, responses={201: Invitation}, workspace=True,
          errors=gated({**_GRANT, 409: ["USER_ALREADY_MEMBER", "INVITATION_PENDING"]}))
async def invite_user(request: Request, body: UserAdd) -> Invitation:
    caller, ws = await workspace(request)
    async with unit_of_work():
        issued = await users.invite(principal=caller, workspace_id=ws.id, email=body.email, role=body.role,
                                    first_name=body.first_name, last_name=body.last_name)
    return Invitation.of(issued.invitation)


@bp.get("/invitations")
@endpoint(summary="Invitations of the workspace, newest first (VIEW_USERS)", tag=_TAG, query=InvitationListQuery,
          responses={200: InvitationPage}, workspace=True)
async def list_invitations(request: Request, query: InvitationListQuery) -> InvitationPage:
    caller, ws = await workspace(request)
    async with unit_of_work():
        items, total = await users.list_invitations(principal=caller, workspace_id=ws.id, status=query.status,
                                                    limit=query.limit, offset=query.offset)
    return InvitationPage(items=[Invitation.of(i) for i in items], total=total, limit=query.limit,
                          offset=query.offset)


@bp.delete("/invitations/<invitation_id:uuid>")
@endpoint(summary="Revoke a pending invitation (MANAGE_USERS); its token stops working", tag=_TAG,
          responses={200: Invitation}, workspace=True,
          errors={404: ["INVITATION_NOT_FOUND"], 409: ["INVITATION_NOT_PENDING"]})
async def revoke_invitation(request: Request, invitation_id: uuid.UUID) -> Invitation:
    caller, ws = await workspace(request)
    async with unit_of_work():
        invitation = await users.revoke_invitation(principal=caller, workspace_id=ws.id, invitation_id=invitation_id)
    return Invitation.of(invitation)


@bp.post("/invitations/accept")
@endpoint(summary="The invited person accepts with the emailed token (no bearer); answers a pairing token",
          description="The owner of a new workspace gets an owner enrollment secret instead (pairing.kind "
                      "owner_enrollment): the operator confirms the device it registers (docs/users.md).",
          tag=_TAG, body=InvitationAccept, responses={200: InvitationAccepted}, auth=False,
          errors={400: ["INVITATION_INVALID"], 409: ["USER_ALREADY_MEMBER", "OWNER_EXISTS"]})
async def accept_invitation(request: Request, body: InvitationAccept) -> InvitationAccepted:
    async with unit_of_work():
        accepted = await users.accept_invitation(token=body.token, first_name=body.first_name,
                                                 last_name=body.last_name)
    return InvitationAccepted.of(accepted)


@bp.post("/invitations/decline")
@endpoint(summary="The invited person declines with the emailed token (no bearer)", tag=_TAG,
          body=InvitationAnswer, responses={204: None}, auth=False, errors={400: ["INVITATION_INVALID"]})
async def decline_invitation(request: Request, body: InvitationAnswer) -> None:
    async with unit_of_work():
        await users.decline_invitation(token=body.token)


@bp.post("/api")
@endpoint(summary="Create an API user with an uploaded Ed25519 public key (MANAGE_USERS)", tag=_TAG,
          body=ApiUserCreate, responses={201: WorkspaceUser}, workspace=True,
          errors=gated({400: ["VALIDATION_ERROR"], **_GRANT}))
async def create_api_user(request: Request, body: ApiUserCreate) -> WorkspaceUser:
    caller, ws = await workspace(request)
    async with unit_of_work():
        member = await users.create_api_user(principal=caller, workspace_id=ws.id, name=body.name, role=body.role,
                                             public_key=key_bytes(body.public_key))
    return WorkspaceUser.of(member)


@bp.put("/<user_id:uuid>/role")
@endpoint(summary="Change a member's role (MANAGE_USERS), under the same rule as granting it", tag=_TAG,
          body=RoleChange, responses={200: WorkspaceUser}, workspace=True,
          errors=gated({**_GRANT, **_MEMBER, 409: ["CANNOT_CHANGE_OWNER_ROLE", "CANNOT_CHANGE_OWN_ROLE"]}))
async def change_role(request: Request, user_id: uuid.UUID, body: RoleChange) -> WorkspaceUser:
    caller, ws = await workspace(request)
    async with unit_of_work():
        member = await users.change_role(principal=caller, workspace_id=ws.id, user_id=user_id, role=body.role)
    return WorkspaceUser.of(member)


@bp.delete("/<user_id:uuid>")
@endpoint(summary="Remove a user from the workspace (MANAGE_USERS); their devices there are revoked", tag=_TAG,
          responses={204: None}, workspace=True,
          errors=gated({**_GRANT, **_MEMBER, 409: ["CANNOT_REMOVE_OWNER", "CANNOT_REMOVE_SELF"]}))
async def remove_user(request: Request, user_id: uuid.UUID) -> None:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await users.remove_user(principal=caller, workspace_id=ws.id, user_id=user_id)
