"""Workspace users: people with a role, and API users with an uploaded Ed25519 public key."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from nacl.bindings import crypto_core_ed25519_is_valid_point

from core import clock
from core.clock import rfc3339
from domain import audit
from domain.auth import Principal, revoke_user_tokens
from domain.errors import Conflict, NotFound, field_error
from domain.permissions import Permission, WorkspaceRole
from models.users import User, WorkspaceMember

WORKSPACE_ROLES = frozenset(r.value for r in WorkspaceRole)


@dataclass(frozen=True)
class Member:
    user: User
    role: str
    role_status: str


def _check_public_key(public_key: bytes) -> None:
    if len(public_key) != 32 or not crypto_core_ed25519_is_valid_point(public_key):
        raise field_error("public_key", "is not a valid Ed25519 public key")


async def add_user(
    *, principal: Principal | None, workspace_id: uuid.UUID, email: str, role: str,
    first_name: str | None = None, last_name: str | None = None, platform_role: str | None = None,
) -> Member:
    """Add a person to the workspace (creating the user when the email is new)."""
    if principal is not None:
        principal.require(workspace_id, Permission.MANAGE_USERS)
    user = await User.get_or_none(email=email, user_type="user")
    if user is None:
        user = await User.create(user_type="user", email=email, first_name=first_name, last_name=last_name,
                                 platform_role=platform_role)
    elif user.status != "active":
        user.status = "active"
        await user.save(update_fields=["status"])
    if await WorkspaceMember.exists(workspace_id=workspace_id, user_id=user.id):
        raise Conflict("the user is already a member of this workspace", code="USER_ALREADY_MEMBER")
    await WorkspaceMember.create(workspace_id=workspace_id, user=user, role=role)
    await audit.record(action="user.added", object_type="user", object_id=user.id,
                       actor_id=principal.user.id if principal else None, workspace_id=workspace_id,
                       details={"role": role})
    return Member(user=user, role=role, role_status="ROLE_STATUS_ACTIVE")


async def create_api_user(
    *, principal: Principal | None, workspace_id: uuid.UUID, name: str, role: str, public_key: bytes,
    platform_role: str | None = None,
) -> Member:
    """Create an API user of the workspace that authenticates with ``public_key`` (Ed25519)."""
    if principal is not None:
        principal.require(workspace_id, Permission.MANAGE_USERS)
    _check_public_key(public_key)
    user = await User.create(user_type="api_user", api_user_name=name, public_key=public_key,
                             platform_role=platform_role)
    await WorkspaceMember.create(workspace_id=workspace_id, user=user, role=role)
    await audit.record(action="user.api_user_created", object_type="user", object_id=user.id,
                       actor_id=principal.user.id if principal else None, workspace_id=workspace_id,
                       details={"role": role, "name": name})
    return Member(user=user, role=role, role_status="ROLE_STATUS_ACTIVE")


async def list_members(*, principal: Principal, workspace_id: uuid.UUID) -> list[Member]:
    principal.require(workspace_id, Permission.VIEW_USERS)
    members = await WorkspaceMember.filter(workspace_id=workspace_id).prefetch_related("user").order_by("created_at")
    return [Member(user=m.user, role=m.role, role_status=m.role_status) for m in members]


async def remove_user(*, principal: Principal, workspace_id: uuid.UUID, user_id: uuid.UUID) -> None:
    """Remove a user from the workspace. An API user, or a person left in no workspace, is
    deactivated and their tokens revoked at once."""
    principal.require(workspace_id, Permission.MANAGE_USERS)
    membership = await WorkspaceMember.filter(workspace_id=workspace_id, user_id=user_id).prefetch_related("user").first()
    if membership is None:
        raise NotFound("user not found", code="USER_NOT_FOUND")
    if membership.role == WorkspaceRole.OWNER:
        raise Conflict("the workspace owner cannot be removed", code="CANNOT_REMOVE_OWNER")
    if user_id == principal.user.id:
        raise Conflict("you cannot remove yourself", code="CANNOT_REMOVE_SELF")
    await membership.delete()
    user = membership.user
    remaining = await WorkspaceMember.filter(user_id=user_id).count()
    if user.user_type == "api_user" or remaining == 0:
        user.status = "removed"
        await user.save(update_fields=["status"])
        await revoke_user_tokens(user_id=user_id)
    await audit.record(action="user.removed", object_type="user", object_id=user_id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"role": membership.role, "deactivated": user.status == "removed",
                                "at": rfc3339(clock.now())})
