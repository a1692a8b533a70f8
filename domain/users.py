"""Workspace users: people invited by email, API users with an uploaded Ed25519 key, their roles.

Rules every path follows (docs/users.md):

- **Nobody grants more than they hold.** A caller with MANAGE_USERS may give (by invitation,
  API-user creation or role change) only a role whose permissions are a subset of its own, and
  may act on (change the role of, remove) only a member whose role is such a subset. 403
  ``ROLE_NOT_GRANTABLE`` otherwise, naming what the caller lacks.
- **OWNER is never granted** by these paths: one owner per workspace, and ownership passes only
  by a transfer the owner starts and the new owner accepts (:mod:`domain.ownership`). The only
  other way to an OWNER is the first owner of a workspace that has none: the operator's
  ``custody bootstrap`` (``principal=None``) or the owner invitation of a workspace created by
  platform staff.
- **People are invited, never enrolled.** ``POST /users`` creates an invitation and emails its
  secret to the address; the person accepts with it (and gets a pairing token for a first
  device). Until then nobody is enrolled, and the inviter sees only what it supplied: whether
  the address belongs to a person of another company is never revealed.
- A removed member's devices in the workspace are revoked, and so are the devices of a member
  whose role becomes one that uses no device (VIEWER).
- **The owner is a person with a paired device**: an API user is never OWNER (403
  ``ROLE_NOT_GRANTABLE`` through the API, 400 ``OWNER_MUST_BE_A_PERSON`` for the operator's
  tooling); the owner's first device is enrolled with a secret the operator confirms
  (domain/devices.py).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from nacl.bindings import crypto_core_ed25519_is_valid_point

from core import clock
from core.clock import rfc3339
from core.settings import get_settings
from domain import audit, devices, notifications
from domain.auth import Principal, hash_token, revoke_user_tokens
from domain.change_approvals import registry as approvals
from domain.change_approvals.gate import gate
from domain.devices import PairingInvitation
from domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed, field_error
from domain.permissions import Permission, WorkspaceRole, grantable, permissions_of, uses_device
from models.companies import Company
from models.users import Invitation, User, WorkspaceMember
from models.workspaces import OwnershipTransfer, Workspace

WORKSPACE_ROLES = frozenset(r.value for r in WorkspaceRole)
INVITATION_PREFIX = "cwi_"
INVITATION_STATUSES = ("pending", "accepted", "declined", "revoked", "expired")


@dataclass(frozen=True)
class Member:
    user: User
    role: str
    role_status: str


@dataclass(frozen=True)
class IssuedInvitation:
    """A new invitation; ``token`` is what the email carries (never stored, never shown to the inviter)."""

    invitation: Invitation
    token: str


@dataclass(frozen=True)
class Acceptance:
    """What the invited person learns on accepting: where they now are, and how to pair a device."""

    workspace: Workspace
    user: User
    role: str
    #: A pairing token for a first device (None for VIEWER, whose role uses no device); for the
    #: owner, an owner enrollment secret (the operator confirms that device).
    pairing: PairingInvitation | None


def _check_public_key(public_key: bytes) -> None:
    if len(public_key) != 32 or not crypto_core_ed25519_is_valid_point(public_key):
        raise field_error("public_key", "is not a valid Ed25519 public key")


def not_grantable(role: str, *, by: str, acting_on: bool = False) -> PermissionDenied:
    """403 ROLE_NOT_GRANTABLE: ``by`` may not give ``role`` (or act on a member holding it)."""
    if role == WorkspaceRole.OWNER:
        reason = "OWNER passes only by an ownership transfer the owner starts and the new owner accepts"
    else:
        missing = sorted(p.value for p in permissions_of(role) - permissions_of(by))
        verb = "act on a member with" if acting_on else "grant"
        reason = f"your role {by} cannot {verb} {role}: it holds {', '.join(missing)}, which yours lacks"
    return PermissionDenied(reason, code="ROLE_NOT_GRANTABLE",
                            details={"role": role, "your_role": by, "reason": reason})


def _require_grant(principal: Principal, workspace_id: uuid.UUID, role: str) -> str:
    """The caller's role, if it may grant ``role`` in the workspace (MANAGE_USERS + subset rule)."""
    access = principal.require(workspace_id, Permission.MANAGE_USERS)
    if not grantable(role, by=access.role):
        raise not_grantable(role, by=access.role)
    return access.role


async def _check_initial_owner(workspace_id: uuid.UUID) -> None:
    """OWNER without a principal: only as the first owner of a workspace that has none."""
    if await WorkspaceMember.exists(workspace_id=workspace_id, role=WorkspaceRole.OWNER):
        raise Conflict("the workspace already has an owner; ownership passes only by a transfer",
                       code="OWNER_EXISTS")


async def _authorize_grant(principal: Principal | None, workspace_id: uuid.UUID, role: str) -> None:
    if principal is not None:
        _require_grant(principal, workspace_id, role)
    elif role == WorkspaceRole.OWNER:
        await _check_initial_owner(workspace_id)


async def _record_member(*, workspace_id: uuid.UUID, user: User, role: str, actor_id: uuid.UUID | None,
                         action: str, details: dict) -> Member:
    await WorkspaceMember.create(workspace_id=workspace_id, user=user, role=role)
    await audit.record(action=action, object_type="user", object_id=user.id, actor_id=actor_id,
                       workspace_id=workspace_id, details={"role": role, **details})
    if role == WorkspaceRole.OWNER:
        await audit.record(action="ownership.initial_owner", object_type="workspace", object_id=workspace_id,
                           actor_id=actor_id, workspace_id=workspace_id, details={"owner_id": str(user.id)})
    return Member(user=user, role=role, role_status="ROLE_STATUS_ACTIVE")


# --- people ----------------------------------------------------------------------------------------


async def add_person(
    *, workspace_id: uuid.UUID, email: str, role: str, first_name: str | None = None,
    last_name: str | None = None, platform_role: str | None = None,
) -> Member:
    """Operator tooling only (``custody bootstrap``): enrol a person directly, no invitation.

    Through the API people are invited (:func:`invite`). OWNER only as the workspace's first owner.
    """
    await _authorize_grant(None, workspace_id, role)
    user = await User.get_or_none(email=email, user_type="user")
    if user is None:
        user = await User.create(user_type="user", email=email, first_name=first_name, last_name=last_name,
                                 platform_role=platform_role)
    elif user.status != "active":
        user.status = "active"
        await user.save(update_fields=["status"])
    if await WorkspaceMember.exists(workspace_id=workspace_id, user_id=user.id):
        raise Conflict("the user is already a member of this workspace", code="USER_ALREADY_MEMBER")
    return await _record_member(workspace_id=workspace_id, user=user, role=role, actor_id=None, action="user.added",
                                details={})


async def _expire_invitations(workspace_id: uuid.UUID) -> None:
    await Invitation.filter(workspace_id=workspace_id, status="pending", expires_at__lte=clock.now()).update(
        status="expired", decided_at=clock.now())


def _email_hash(email: str) -> str:
    return hashlib.sha256(email.encode()).hexdigest()


async def invite(
    *, principal: Principal | None, workspace_id: uuid.UUID, email: str, role: str,
    first_name: str | None = None, last_name: str | None = None,
) -> IssuedInvitation:
    """Invite a person by email to ``role``; the secret goes only to the address (by email).

    ``principal`` None is the system's owner invitation of a new workspace (OWNER allowed only
    while the workspace has no owner). Answers 409 USER_ALREADY_MEMBER when a member of *this*
    workspace has the address (the caller can list the members anyway) and 409
    INVITATION_PENDING when one is waiting; nothing about people elsewhere is looked at.
    """
    await _authorize_grant(principal, workspace_id, role)
    email = email.strip().lower()
    if await WorkspaceMember.exists(workspace_id=workspace_id, user__email=email, user__user_type="user"):
        raise Conflict("a member of this workspace has this email", code="USER_ALREADY_MEMBER")
    await _expire_invitations(workspace_id)
    pending = await Invitation.get_or_none(workspace_id=workspace_id, email=email, status="pending")
    if pending is not None:
        raise Conflict("an invitation to this email is pending; revoke it to invite again",
                       code="INVITATION_PENDING", details={"invitation_id": str(pending.id)})
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_USERS, operation="create",
               payload={"email": email, "role": role, "first_name": first_name, "last_name": last_name})
    settings = get_settings()
    token = INVITATION_PREFIX + secrets.token_urlsafe(32)
    invitation = await Invitation.create(
        workspace_id=workspace_id, email=email, role=role, first_name=first_name, last_name=last_name,
        token_hash=hash_token(token), expires_at=clock.now() + timedelta(seconds=settings.invitation_ttl_seconds),
        invited_by_id=principal.user.id if principal else None,
    )
    actor_id = principal.user.id if principal else None
    await audit.record(action="user.invited", object_type="invitation", object_id=invitation.id, actor_id=actor_id,
                       workspace_id=workspace_id, details={"role": role, "email_sha256": _email_hash(email)})
    workspace = await Workspace.get(id=workspace_id)
    company = await Company.get(id=workspace.company_id)
    await notifications.email(
        to=[email], workspace_id=workspace_id,
        subject=f"You are invited to {workspace.name} ({company.name}) as {role}",
        body=(f"You are invited to join the workspace {workspace.name} of {company.name} with the role {role}.\n\n"
              f"To accept, send this token to {settings.base_url}/api/v1/users/invitations/accept\n"
              f"(POST, JSON body {{\"token\": \"...\"}}); to decline, to .../invitations/decline:\n\n"
              f"    {token}\n\n"
              f"The invitation expires at {rfc3339(invitation.expires_at)}. Accepting answers a pairing token\n"
              f"for your device. If you did not expect this, ignore it or decline.\n"),
    )
    return IssuedInvitation(invitation=invitation, token=token)


async def _pending_by_token(token: str) -> Invitation:
    invitation = await Invitation.filter(token_hash=hash_token(token)).select_for_update().first()
    if invitation is None or invitation.status != "pending" or invitation.expires_at <= clock.now():
        # One answer for unknown, used, revoked and expired tokens: nothing to probe.
        raise ValidationFailed("the invitation token is invalid or expired", code="INVITATION_INVALID",
                               details={"field": "token"})
    return invitation


async def accept_invitation(*, token: str, first_name: str | None = None, last_name: str | None = None) -> Acceptance:
    """The invited person accepts (the token proves control of the address): they become a
    member with the invited role, and get a pairing token for a first device."""
    invitation = await _pending_by_token(token)
    workspace_id: uuid.UUID = invitation.workspace_id
    if invitation.role == WorkspaceRole.OWNER:
        await _check_initial_owner(workspace_id)
    user = await User.get_or_none(email=invitation.email, user_type="user")
    if user is None:
        user = await User.create(user_type="user", email=invitation.email,
                                 first_name=first_name or invitation.first_name,
                                 last_name=last_name or invitation.last_name)
    elif user.status != "active":
        user.status = "active"
        await user.save(update_fields=["status"])
    if await WorkspaceMember.exists(workspace_id=workspace_id, user_id=user.id):
        raise Conflict("you are already a member of this workspace", code="USER_ALREADY_MEMBER")
    invitation.status = "accepted"
    invitation.user = user
    invitation.decided_at = clock.now()
    await invitation.save(update_fields=["status", "user_id", "decided_at"])
    member = await _record_member(workspace_id=workspace_id, user=user, role=invitation.role, actor_id=user.id,
                                  action="user.invitation_accepted", details={"invitation_id": str(invitation.id)})
    pairing = None
    if member.role == WorkspaceRole.OWNER:
        # Nobody in the workspace can confirm the first owner's device: the operator does.
        pairing = await devices.start_owner_enrollment(workspace_id=workspace_id)
    elif uses_device(member.role):
        pairing = await devices.start_pairing(workspace_id=workspace_id, user_id=user.id)
    return Acceptance(workspace=await Workspace.get(id=workspace_id), user=user, role=member.role, pairing=pairing)


async def decline_invitation(*, token: str) -> None:
    invitation = await _pending_by_token(token)
    invitation.status = "declined"
    invitation.decided_at = clock.now()
    await invitation.save(update_fields=["status", "decided_at"])
    await audit.record(action="user.invitation_declined", object_type="invitation", object_id=invitation.id,
                       actor_id=None, workspace_id=invitation.workspace_id)


async def revoke_invitation(*, principal: Principal, workspace_id: uuid.UUID, invitation_id: uuid.UUID) -> Invitation:
    """Withdraw a pending invitation (MANAGE_USERS); its token stops working."""
    principal.require(workspace_id, Permission.MANAGE_USERS)
    await _expire_invitations(workspace_id)
    invitation = await Invitation.filter(id=invitation_id, workspace_id=workspace_id).select_for_update().first()
    if invitation is None:
        raise NotFound("invitation not found", code="INVITATION_NOT_FOUND")
    if invitation.status != "pending":
        raise Conflict(f"the invitation is {invitation.status}", code="INVITATION_NOT_PENDING",
                       details={"status": invitation.status})
    invitation.status = "revoked"
    invitation.decided_at = clock.now()
    await invitation.save(update_fields=["status", "decided_at"])
    await audit.record(action="user.invitation_revoked", object_type="invitation", object_id=invitation.id,
                       actor_id=principal.user.id, workspace_id=workspace_id)
    return invitation


def invitation_status(invitation: Invitation) -> str:
    """The status as callers see it: a pending invitation past its expiry is ``expired``."""
    if invitation.status == "pending" and invitation.expires_at <= clock.now():
        return "expired"
    return invitation.status


async def list_invitations(*, principal: Principal, workspace_id: uuid.UUID, status: str | None, limit: int,
                           offset: int) -> tuple[list[Invitation], int]:
    """The workspace's invitations, newest first (VIEW_USERS)."""
    principal.require(workspace_id, Permission.VIEW_USERS)
    await _expire_invitations(workspace_id)
    query = Invitation.filter(workspace_id=workspace_id)
    if status is not None:
        query = query.filter(status=status)
    return await query.order_by("-created_at", "-id").offset(offset).limit(limit), await query.count()


# --- API users -----------------------------------------------------------------------------------


async def create_api_user(
    *, principal: Principal | None, workspace_id: uuid.UUID, name: str, role: str, public_key: bytes,
    platform_role: str | None = None,
) -> Member:
    """Create an API user of the workspace that authenticates with ``public_key`` (Ed25519).

    The role follows the grant rule (module docstring); ``principal`` None is operator tooling.
    """
    if principal is not None:
        _require_grant(principal, workspace_id, role)  # OWNER is never granted (ROLE_NOT_GRANTABLE)
    if role == WorkspaceRole.OWNER:
        # The owner is a person with a paired device: a key alone never owns a workspace, not
        # even one the operator's tooling creates.
        raise ValidationFailed("an API user cannot be the owner: the owner is a person with a paired device",
                               code="OWNER_MUST_BE_A_PERSON", details={"field": "role", "reason": "OWNER"})
    _check_public_key(public_key)
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_USERS,
               operation="api_user_create",
               payload={"name": name, "role": role, "public_key": base64.b64encode(public_key).decode()})
    user = await User.create(user_type="api_user", api_user_name=name, public_key=public_key,
                             platform_role=platform_role)
    return await _record_member(workspace_id=workspace_id, user=user, role=role,
                                actor_id=principal.user.id if principal else None, action="user.api_user_created",
                                details={"name": name})


# --- members ---------------------------------------------------------------------------------------


async def list_members(*, principal: Principal, workspace_id: uuid.UUID, limit: int,
                       offset: int) -> tuple[list[Member], int]:
    """Members in the order they joined (VIEW_USERS)."""
    principal.require(workspace_id, Permission.VIEW_USERS)
    query = WorkspaceMember.filter(workspace_id=workspace_id)
    members = await query.order_by("created_at", "id").offset(offset).limit(limit).prefetch_related("user")
    return [Member(user=m.user, role=m.role, role_status=m.role_status) for m in members], await query.count()


async def _membership_to_manage(principal: Principal, workspace_id: uuid.UUID, user_id: uuid.UUID, *,
                                owner: Conflict, self_: Conflict) -> tuple[str, WorkspaceMember]:
    """The caller's role and the target's membership (locked), if the caller may act on it:
    not the owner (``owner``), not the caller itself (``self_``), not a member above the caller."""
    access = principal.require(workspace_id, Permission.MANAGE_USERS)
    membership = await WorkspaceMember.filter(workspace_id=workspace_id, user_id=user_id).select_for_update() \
        .prefetch_related("user").first()
    if membership is None:
        raise NotFound("user not found", code="USER_NOT_FOUND")
    if membership.role == WorkspaceRole.OWNER:
        raise owner
    if user_id == principal.user.id:
        raise self_
    if not grantable(membership.role, by=access.role):
        raise not_grantable(membership.role, by=access.role, acting_on=True)
    return access.role, membership


async def change_role(*, principal: Principal, workspace_id: uuid.UUID, user_id: uuid.UUID, role: str) -> Member:
    """Give a member another role, under the grant rule; the owner's role changes only by a transfer."""
    caller_role, membership = await _membership_to_manage(
        principal, workspace_id, user_id,
        owner=Conflict("the owner's role changes only by an ownership transfer", code="CANNOT_CHANGE_OWNER_ROLE"),
        self_=Conflict("you cannot change your own role", code="CANNOT_CHANGE_OWN_ROLE"))
    if not grantable(role, by=caller_role):
        raise not_grantable(role, by=caller_role)
    previous = membership.role
    if previous == role and approvals.applying.get():
        raise Conflict(f"the user already has the role {role}", code="USER_ALREADY_IN_ROLE",
                       details={"user_uuid": str(user_id), "role": role})
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_USERS, operation="role_change",
               payload={"user_uuid": str(user_id), "role": role}, noop=previous == role)
    if previous != role:
        membership.role = role
        await membership.save(update_fields=["role"])
        details: dict[str, Any] = {"from": previous, "to": role}
        if not uses_device(role):
            # A role that uses no device: the member's devices here stop working at once.
            details["devices_revoked"] = await devices.revoke_member_devices(
                workspace_id=workspace_id, user_id=user_id, reason=f"the role {role} uses no device")
        await audit.record(action="user.role_changed", object_type="user", object_id=user_id,
                           actor_id=principal.user.id, workspace_id=workspace_id, details=details)
    return Member(user=membership.user, role=membership.role, role_status=membership.role_status)


async def remove_user(*, principal: Principal, workspace_id: uuid.UUID, user_id: uuid.UUID) -> None:
    """Remove a member. Their devices in the workspace are revoked; an API user, or a person left
    in no workspace, is deactivated and their tokens revoked at once."""
    _, membership = await _membership_to_manage(
        principal, workspace_id, user_id,
        owner=Conflict("the workspace owner cannot be removed", code="CANNOT_REMOVE_OWNER"),
        self_=Conflict("you cannot remove yourself", code="CANNOT_REMOVE_SELF"))
    await gate(principal=principal, workspace_id=workspace_id, action=approvals.MANAGE_USERS, operation="delete",
               payload={"user_uuid": str(user_id)})
    await membership.delete()
    revoked_devices = await devices.revoke_member_devices(workspace_id=workspace_id, user_id=user_id)
    await OwnershipTransfer.filter(workspace_id=workspace_id, to_user_id=user_id, status="pending").update(
        status="cancelled", decided_at=clock.now())
    user = membership.user
    remaining = await WorkspaceMember.filter(user_id=user_id).count()
    if user.user_type == "api_user" or remaining == 0:
        user.status = "removed"
        await user.save(update_fields=["status"])
        await revoke_user_tokens(user_id=user_id)
    await audit.record(action="user.removed", object_type="user", object_id=user_id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"role": membership.role, "deactivated": user.status == "removed",
                                "devices_revoked": revoked_devices, "at": rfc3339(clock.now())})


# --- the Manage users action of the change approvals ----------------------------------------------


async def _approval_display(*, workspace_id: uuid.UUID, payload: approvals.Payload) -> dict[str, Any] | None:
    """The spec's display of a role change or removal: the user and their role at request time."""
    if approvals.operation_of(payload) not in ("role_change", "delete"):
        return None
    member = await WorkspaceMember.get_or_none(workspace_id=workspace_id, user_id=payload["user_uuid"]) \
        .prefetch_related("user")
    if member is None:
        return None
    return {"user": approvals.participant(member.user), "current_role": member.role}


async def _apply_approved(*, workspace_id: uuid.UUID, payload: approvals.Payload,
                          principal: Principal | None) -> None:
    """Replay an approved change with the initiator's rights of now (``principal``)."""
    operation = approvals.operation_of(payload)
    if principal is None:
        raise PermissionDenied("the initiator's rights are needed to apply this change", code="INITIATOR_RIGHTS_LOST")
    if operation == "create":
        await invite(principal=principal, workspace_id=workspace_id, email=payload["email"], role=payload["role"],
                     first_name=payload.get("first_name"), last_name=payload.get("last_name"))
    elif operation == "api_user_create":
        await create_api_user(principal=principal, workspace_id=workspace_id, name=payload["name"],
                              role=payload["role"], public_key=base64.b64decode(payload["public_key"]))
    elif operation == "role_change":
        await change_role(principal=principal, workspace_id=workspace_id, user_id=uuid.UUID(payload["user_uuid"]),
                          role=payload["role"])
    elif operation == "delete":
        await remove_user(principal=principal, workspace_id=workspace_id, user_id=uuid.UUID(payload["user_uuid"]))
    else:
        raise ValidationFailed(f"unknown operation {operation!r}")


approvals.register(approvals.GatedAction(
    key=approvals.MANAGE_USERS, display_name="Manage users",
    operations=("create", "api_user_create", "delete", "role_change"),
    display=_approval_display, apply=_apply_approved, recheck_initiator=True))
