"""The gate a gated service calls before it changes anything.

A gated service authorizes the caller and validates the change as usual, then calls
:func:`gate` with the action, the operation, the JSON payload that will replay the change, and
whether the change would change nothing. The gate returns (the service goes on and applies the
change) when:

- no principal (operator tooling, the system), or the apply actor is replaying an approved
  change (``registry.applying``);
- the caller is PLATFORM_ADMIN (rule 2; PLATFORM_SUPPORT has no bypass);
- the change changes nothing (it executes at once);
- the action's rule is off (the default).

Otherwise it registers a request (or finds the one the initiator already has for the same
change) and raises 403 QUORUM_APPROVAL_REQUIRED, which commits the request and nothing else
(core/unit_of_work.py). 409 QUORUM_NO_ELIGIBLE_APPROVERS when the rule's sets cannot reach their
thresholds now; 503 CHANGE_APPROVAL_UNAVAILABLE when the engine cannot register.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import timedelta
from typing import Any, Mapping

from tortoise import connections
from tortoise.exceptions import BaseORMException
from tortoise.transactions import in_transaction

from core import clock
from core.clock import rfc3339
from core.settings import get_settings
from domain import audit
from domain.auth import Principal
from domain.change_approvals import notify, pools, registry
from domain.change_approvals.registry import (
    PENDING,
    ChangeApprovalUnavailable,
    NoEligibleApprovers,
    QuorumApprovalRequired,
)
from domain.permissions import PlatformRole
from models.change_approvals import ApproverSet, ChangeRequest, SetApprover


def bypasses(principal: Principal | None) -> bool:
    """Whether changes by ``principal`` skip approval: none, PLATFORM_ADMIN, or an apply in progress."""
    if principal is None or registry.applying.get():
        return True
    return principal.user.platform_role == PlatformRole.PLATFORM_ADMIN.value


def fingerprint(action: str, payload: Mapping[str, Any]) -> str:
    canonical = json.dumps({"action": action, "payload": payload}, sort_keys=True, separators=(",", ":"),
                           default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def required(request: ChangeRequest) -> QuorumApprovalRequired:
    return QuorumApprovalRequired(
        "this change needs approval: a change approval request was registered and nothing was applied",
        details={"approval_request_uuid": str(request.id), "action": request.action,
                 "operation": request.operation, "mode": request.mode, "expires_at": rfc3339(request.expires_at)})


async def gate(*, principal: Principal | None, workspace_id: uuid.UUID, action: str, operation: str | None,
               payload: Mapping[str, Any], noop: bool = False) -> None:
    """Return when the change may be applied now; raise 403 QUORUM_APPROVAL_REQUIRED otherwise."""
    if bypasses(principal) or noop:
        return
    assert principal is not None
    rule = await pools.rule_of(workspace_id, action)
    if rule is None or not rule.enabled:
        return
    await register(principal=principal, workspace_id=workspace_id, action=action, operation=operation,
                   payload=payload, rule_mode=rule.mode, group_id=rule.group_id,
                   owner_confirmation=rule.owner_confirmation)


async def register(*, principal: Principal, workspace_id: uuid.UUID, action: str, operation: str | None,
                   payload: Mapping[str, Any], rule_mode: str, group_id: uuid.UUID | None,
                   owner_confirmation: bool) -> None:
    """Register the request (or find the initiator's pending one) and raise QUORUM_APPROVAL_REQUIRED."""
    entry = registry.get(action)
    if not get_settings().change_approvals_available or entry is None or entry.apply is None:
        raise ChangeApprovalUnavailable("change approval is temporarily unavailable; nothing was saved, retry later",
                                        details={"action": action})
    mode = entry.fixed_mode or rule_mode
    body = {"operation": operation, **payload}
    digest = fingerprint(action, body)
    now = clock.now()
    # Serialize registrations of one change by one initiator: a double submit finds the first request.
    await connections.get("default").execute_query(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [f"change_approval:{principal.user.id}:{digest}"])
    existing = await ChangeRequest.filter(workspace_id=workspace_id, initiator_id=principal.user.id, action=action,
                                          fingerprint=digest, status=PENDING, expires_at__gt=now).first()
    if existing is not None:
        raise required(existing)
    sets = await pools.compose(workspace_id=workspace_id, mode=mode, group_id=group_id,
                               owner_confirmation=owner_confirmation)
    if not pools.reachable(sets):
        raise NoEligibleApprovers(
            "no eligible approvers can confirm this change now; nothing was saved",
            details={"action": action, "mode": mode,
                     "sets": [{"external_id": s.external_id, "threshold": s.threshold,
                               "approvers": len(s.approvers)} for s in sets]})
    display = await entry.display(workspace_id=workspace_id, payload=body) if entry.display else None
    try:
        async with in_transaction():  # a savepoint: a failure here is a 503, not a broken transaction
            request = await ChangeRequest.create(
                workspace_id=workspace_id, action=action, operation=operation, mode=mode, payload=body,
                display=display, fingerprint=digest, initiator_id=principal.user.id, status=PENDING,
                expires_at=now + timedelta(seconds=get_settings().change_approval_ttl_seconds))
            approvers: set[uuid.UUID] = set()
            for position, plan in enumerate(sets):
                row = await ApproverSet.create(request=request, external_id=plan.external_id, kind=plan.kind,
                                               threshold=plan.threshold, position=position)
                await SetApprover.bulk_create([SetApprover(approver_set_id=row.id, request_id=request.id, user_id=u)
                                               for u in plan.approvers])
                approvers.update(plan.approvers)
    except BaseORMException as exc:
        raise ChangeApprovalUnavailable("change approval is temporarily unavailable; nothing was saved, retry "
                                        "later", details={"action": action}) from exc
    await audit.record(action="change_approval.requested", object_type="change_request", object_id=request.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"action": action, "operation": operation, "mode": mode})
    await notify.publish(request, "change_approval.created", recipients={principal.user.id, *approvers},
                         push_to=approvers)
    raise required(request)
