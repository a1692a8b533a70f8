"""The registry of gated actions and the names shared by every module of the change approvals.

Each gated domain registers its own action when it is imported (:func:`register`): its key, its
operations, the display snapshot builder and the ``validate`` / ``apply`` functions the apply
actor calls after approval, and whether the initiator's rights are re-checked then. So the
arrows run one way: a gated domain (users, groups, tags, whitelist, policies, the approval
settings in :mod:`.rules`) imports this module and :mod:`.gate`; nothing of the change approvals
imports a gated domain (an import-linter contract in pyproject.toml keeps it so). A process that
applies or lists requests imports the gated domains first (the API does through its endpoints,
the worker through actors/change_approvals.py); :func:`missing` names any action not registered.

``apply`` receives the initiator's principal when rights are re-checked (users, groups, approval
settings) and None otherwise (whitelist, tags, one-time setting, policies: applied even if the
initiator lost rights meanwhile). An action that is not registered, or registered without
``apply``, cannot register requests: a gated call answers 503 CHANGE_APPROVAL_UNAVAILABLE rather
than a request nobody can ever apply.
"""

from __future__ import annotations

import uuid
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping

from domain.auth import Principal
from domain.errors import Conflict, DomainError, PermissionDenied
from models.users import User

# --- action keys (the ``key`` of the actions list, ``action`` everywhere else) --------------------
MANAGE_USERS = "manage_users"
MANAGE_GROUPS = "manage_groups"
MANAGE_APPROVALS = "manage_approvals"
ADD_WHITELIST_ADDRESS = "add_whitelist_address"
MANAGE_TAGS = "manage_tags"
ONE_TIME_ADDRESS_TRANSFERS = "one_time_address_transfers"
MANAGE_POLICIES = "manage_policies"
#: Every action of the spec, in the order the lists show them.
ACTION_KEYS = (MANAGE_USERS, MANAGE_GROUPS, MANAGE_APPROVALS, ADD_WHITELIST_ADDRESS, MANAGE_TAGS,
               ONE_TIME_ADDRESS_TRANSFERS, MANAGE_POLICIES)

# --- modes -----------------------------------------------------------------------------------------
OWNER_ONLY = "QUORUM_APPROVAL_MODE_OWNER_ONLY"
ADMIN_QUORUM = "QUORUM_APPROVAL_MODE_ADMIN_QUORUM"
SPECIFIC_GROUP = "QUORUM_APPROVAL_MODE_SPECIFIC_GROUP"
MODES = (OWNER_ONLY, ADMIN_QUORUM, SPECIFIC_GROUP)

# --- statuses --------------------------------------------------------------------------------------
PENDING, APPROVED, EXECUTED, FAILED = "PENDING", "APPROVED", "EXECUTED", "FAILED"
REJECTED, EXPIRED, CANCELLED = "REJECTED", "EXPIRED", "CANCELLED"
REQUEST_STATUSES = (PENDING, APPROVED, EXECUTED, FAILED, REJECTED, EXPIRED, CANCELLED)
FINAL_STATUSES = frozenset({EXECUTED, FAILED, REJECTED, EXPIRED, CANCELLED})

#: Scopes of the request lists.
PENDING_MY_VOTE, INITIATED_BY_ME, ALL = "PENDING_MY_VOTE", "INITIATED_BY_ME", "ALL"
SCOPES = (PENDING_MY_VOTE, INITIATED_BY_ME, ALL)


# --- errors ----------------------------------------------------------------------------------------


class QuorumApprovalRequired(PermissionDenied):
    """403: the change was registered as a request and not applied.

    ``commit_unit_of_work``: the unit of work commits what the block wrote (the request) before
    the error leaves it (core/unit_of_work.py); every other error rolls back.
    """

    code = "QUORUM_APPROVAL_REQUIRED"
    commit_unit_of_work = True


class NoEligibleApprovers(Conflict):
    code = "QUORUM_NO_ELIGIBLE_APPROVERS"


class ChangeApprovalUnavailable(DomainError):
    status = 503
    code = "CHANGE_APPROVAL_UNAVAILABLE"


class ChangeRequestsDisabled(PermissionDenied):
    code = "QUORUM_CHANGE_REQUESTS_DISABLED"


class GroupManagementApprovalDisabled(Conflict):
    code = "QUORUM_GROUP_MANAGEMENT_APPROVAL_DISABLED"


class GroupManagementApprovalInUse(Conflict):
    code = "QUORUM_GROUP_MANAGEMENT_APPROVAL_IN_USE"


class VoteDeviceRequired(PermissionDenied):
    code = "CHANGE_VOTE_DEVICE_REQUIRED"


class VoteNotAllowed(PermissionDenied):
    code = "CHANGE_VOTE_NOT_ALLOWED"


class VoteConflict(Conflict):
    code = "CHANGE_VOTE_CONFLICT"


class CancelNotAllowed(PermissionDenied):
    code = "CHANGE_REQUEST_CANCEL_NOT_ALLOWED"


class AlreadyFinalized(Conflict):
    code = "CHANGE_REQUEST_ALREADY_FINALIZED"


class RequestNotFound(DomainError):
    status = 404
    code = "CHANGE_REQUEST_NOT_FOUND"


# --- the registry ----------------------------------------------------------------------------------

Payload = Mapping[str, Any]
DisplayBuilder = Callable[..., Awaitable[dict[str, Any] | None]]
Validate = Callable[..., Awaitable[None]]
Apply = Callable[..., Awaitable[None]]


@dataclass(frozen=True)
class GatedAction:
    key: str
    display_name: str
    #: The values of ``payload.operation`` (empty: the action has no operations).
    operations: tuple[str, ...]
    #: ``display(*, workspace_id, payload) -> dict | None``: names captured at creation.
    display: DisplayBuilder | None = None
    #: ``validate(*, workspace_id, payload, principal)``: raise a DomainError if it cannot apply now.
    validate: Validate | None = None
    #: ``apply(*, workspace_id, payload, principal)``: make the change (raise a DomainError to fail).
    apply: Apply | None = None
    #: Re-check the initiator's rights at apply time (users, groups, approval settings).
    recheck_initiator: bool = False
    #: The mode when it is not selectable (Manage approvals: the owner confirms).
    fixed_mode: str | None = None


_actions: dict[str, GatedAction] = {}

#: Set while the apply actor replays an approved change: the gate lets it through.
applying: ContextVar[bool] = ContextVar("change_approval_applying", default=False)


def register(action: GatedAction) -> None:
    """Register (or replace) a gated action; each gated domain calls it once, on import."""
    _actions[action.key] = action


def get(key: str) -> GatedAction | None:
    return _actions.get(key)


def all_actions() -> list[GatedAction]:
    """The registered actions: the spec's in their order, then any other."""
    order = {key: position for position, key in enumerate(ACTION_KEYS)}
    return sorted(_actions.values(), key=lambda entry: (order.get(entry.key, len(order)), entry.key))


def missing() -> list[str]:
    """The spec's actions no imported module has registered (empty in a process that is wired)."""
    return [key for key in ACTION_KEYS if key not in _actions]


def principal_user_id(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal is not None else None


def participant(user: User) -> dict[str, Any]:
    """The spec's participant: user_uuid, user_type, email, first_name, last_name, api_user_name."""
    return {"user_uuid": str(user.id), "user_type": user.user_type, "email": user.email,
            "first_name": user.first_name, "last_name": user.last_name, "api_user_name": user.api_user_name}


def operation_of(payload: Payload) -> str | None:
    return payload.get("operation")
