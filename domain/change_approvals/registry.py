"""The registry of gated actions and the names shared by every module of the change approvals.

An action registers once (:func:`register`) with its key, its operations, the display snapshot
builder and the ``validate`` / ``apply`` functions the apply actor calls after approval, and
whether the initiator's rights are re-checked then. ``apply`` receives the initiator's principal
when rights are re-checked (users, groups, approval settings) and None otherwise (whitelist, tags,
one-time setting, policies: applied even if the initiator lost rights meanwhile).

An action registered without ``apply`` (policies until their service lands) cannot register
requests: a gated call answers 503 CHANGE_APPROVAL_UNAVAILABLE rather than a request nobody can
ever apply.
"""

from __future__ import annotations

import importlib
import uuid
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping

from domain.auth import Principal
from domain.errors import Conflict, DomainError, PermissionDenied

# --- action keys (the ``key`` of the actions list, ``action`` everywhere else) --------------------
MANAGE_USERS = "manage_users"
MANAGE_GROUPS = "manage_groups"
MANAGE_APPROVALS = "manage_approvals"
ADD_WHITELIST_ADDRESS = "add_whitelist_address"
MANAGE_TAGS = "manage_tags"
ONE_TIME_ADDRESS_TRANSFERS = "one_time_address_transfers"
MANAGE_POLICIES = "manage_policies"

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
_loaded = False

#: Set while the apply actor replays an approved change: the gate lets it through.
applying: ContextVar[bool] = ContextVar("change_approval_applying", default=False)


def register(action: GatedAction) -> None:
    """Register (or replace) a gated action. Replacing is how the policies service plugs in."""
    _actions[action.key] = action


def ensure_loaded() -> None:
    """Import the registrations (domain/change_approvals/actions.py) on first use: they import the
    gated services, which import the gate, so they cannot load with this module."""
    global _loaded
    if not _loaded:
        _loaded = True
        importlib.import_module("domain.change_approvals.actions")


def get(key: str) -> GatedAction | None:
    ensure_loaded()
    return _actions.get(key)


def all_actions() -> list[GatedAction]:
    ensure_loaded()
    return list(_actions.values())


def principal_user_id(principal: Principal | None) -> uuid.UUID | None:
    return principal.user.id if principal is not None else None
