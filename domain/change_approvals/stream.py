"""What a WebSocket stream sends: the events of change_approval_events a caller may see.

A caller sees an event when they are among its recipients (the initiator and the approvers of
the request) or may see every request of its workspace (VIEW_CHANGE_APPROVALS, not from a
device). A device sees only the events of the workspace it was paired to (its token's access).
"""

from __future__ import annotations

from typing import Any

from core.clock import rfc3339
from domain.auth import Principal
from domain.permissions import Permission
from models.change_approvals import ChangeApprovalEvent

BATCH = 200


async def latest_cursor() -> int:
    last = await ChangeApprovalEvent.all().order_by("-id").first()
    return last.id if last else 0


def _visible(principal: Principal, event: ChangeApprovalEvent) -> bool:
    access = principal.access_to(event.workspace_id)
    if access is None:
        return False
    if str(principal.user.id) in event.recipients:
        return True
    return principal.device is None and Permission.VIEW_CHANGE_APPROVALS in access.permissions


async def events_for(*, principal: Principal, after: int) -> tuple[list[dict[str, Any]], int]:
    """The caller's events after ``after`` (at most BATCH), and the new cursor."""
    rows = await ChangeApprovalEvent.filter(id__gt=after, workspace_id__in=list(principal.accesses)) \
        .order_by("id").limit(BATCH)
    cursor = rows[-1].id if rows else after
    return [{"cursor": r.id, "event": r.event, "tenant_uuid": str(r.workspace_id),
             "request_uuid": str(r.request_id), "data": r.data, "created_at": rfc3339(r.created_at)}
            for r in rows if _visible(principal, r)], cursor
