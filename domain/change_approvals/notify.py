"""Telling people about a request's progress: WebSocket events, push notifications, webhooks.

- **WebSocket events** (:func:`publish`): a row of ``change_approval_events`` written in the
  transaction of the change it reports. The streams (api/change_approvals_ws.py) read the rows in
  ``id`` order and send each to its recipients (initiator and approvers) and to members who may
  see every request of the workspace (VIEW_CHANGE_APPROVALS). Nothing is published for a change
  that rolls back, and the apply actor (another process) publishes the same way.
- **Push notifications** go only to the paired devices of the initiator and the approvers:
  an outbox command ``change_approvals.push`` written in the same transaction; the actor hands
  each active device's notification to the configured :class:`PushProvider`.
  :class:`DatabasePushProvider` (development and tests) records it in ``push_notifications``.
- **Webhook events** ``change_approval.*`` (domain/webhooks) for machine callers.
- **Security notices** (domain/notifications.py's approver channel): every notice of a workspace
  is pushed to the devices of those who confirm changes there.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Iterable, Protocol

from core.clock import rfc3339
from core.outbox import add_command
from core.settings import get_settings
from domain.change_approvals import pools
from domain.notifications import SecurityNotice, register_approver_channel
from domain.webhooks import events as webhook_events
from models.auth import Device
from models.change_approvals import ActionRule, ChangeApprovalEvent, ChangeRequest, PushNotification

PUSH = "change_approvals.push"

#: WebSocket event names (docs/change-approvals.md) and what each reports.
WS_EVENTS: dict[str, str] = {
    "change_approval.created": "a request was registered; the approvers are asked to vote",
    "change_approval.voted": "an approver voted (data.vote is APPROVED or REJECTED)",
    "change_approval.approved": "enough confirmations: the change is being applied",
    "change_approval.executed": "the change was applied",
    "change_approval.failed": "the change could not be applied (data.failure_code, data.failure_reason)",
    "change_approval.rejected": "the threshold can no longer be reached",
    "change_approval.expired": "72 hours passed without the needed votes",
    "change_approval.cancelled": "the initiator cancelled (or settings approval was switched off)",
}

_PUSH_TEXT = {
    "change_approval.created": "Your confirmation is requested",
    "change_approval.approved": "Change approved",
    "change_approval.executed": "Change applied",
    "change_approval.failed": "Approved change failed",
    "change_approval.rejected": "Change rejected",
    "change_approval.expired": "Change request expired",
    "change_approval.cancelled": "Change request cancelled",
}


def summary(request: ChangeRequest, **extra: Any) -> dict[str, Any]:
    """The event data: enough to show a line and fetch the card."""
    return {"request_uuid": str(request.id), "tenant_uuid": str(request.workspace_id),
            "action": request.action, "operation": request.operation, "mode": request.mode,
            "status": request.status, "initiator_uuid": str(request.initiator_id),
            "expires_at": rfc3339(request.expires_at), **extra}


async def publish(request: ChangeRequest, event: str, *, recipients: Iterable[uuid.UUID],
                  push_to: Iterable[uuid.UUID] = (), **extra: Any) -> None:
    """Publish ``event`` of ``request`` on every channel, in the caller's transaction."""
    data = summary(request, **extra)
    people = sorted({str(r) for r in recipients})
    await ChangeApprovalEvent.create(workspace_id=request.workspace_id, request_id=request.id,
                                     event=event, recipients=people, data=data)
    await webhook_events.emit_event(workspace_id=request.workspace_id, event_type=event, data=data)
    targets = sorted({str(u) for u in push_to})
    if targets and event in _PUSH_TEXT:
        await add_command(actor_name=PUSH, workspace_id=request.workspace_id,
                          payload={"request_id": str(request.id), "event": event, "user_ids": targets})


class PushProvider(Protocol):
    """Sends one notification to one device (APNs, FCM, ... in production)."""

    name: str

    async def send(self, *, device: Device, title: str, body: str, data: dict[str, Any]) -> None: ...


class DatabasePushProvider:
    """Records each notification in ``push_notifications`` (development and tests)."""

    name = "database"

    async def send(self, *, device: Device, title: str, body: str, data: dict[str, Any]) -> None:
        await PushNotification.create(workspace_id=device.workspace_id, user_id=device.user_id,
                                      device_id=device.id, provider=self.name, event=data.get("event", ""),
                                      request_id=uuid.UUID(data["request_uuid"]) if data.get("request_uuid") else None,
                                      title=title, body=body, data=data)


_PROVIDERS: dict[str, PushProvider] = {"database": DatabasePushProvider()}


def register_push_provider(provider: PushProvider) -> None:
    """Plug in a real provider; ``PUSH_PROVIDER`` names the one used."""
    _PROVIDERS[provider.name] = provider


def push_provider() -> PushProvider:
    name = get_settings().push_provider
    try:
        return _PROVIDERS[name]
    except KeyError:
        raise RuntimeError(f"unknown PUSH_PROVIDER {name!r}; known: {', '.join(sorted(_PROVIDERS))}") from None


async def deliver_push(*, request_id: str | None, event: str, user_ids: list[str],
                       notice: dict[str, Any] | None = None) -> int:
    """The push actor's work: one notification per active device of the users in the workspace
    (of the request, or of the security ``notice``). Returns how many were handed to the provider."""
    if request_id is not None:
        request = await ChangeRequest.get_or_none(id=request_id)
        if request is None:
            return 0
        workspace_id = request.workspace_id
        title, body = _PUSH_TEXT.get(event, event), f"{request.action} ({request.operation or '-'}): {request.status}"
        data = {"event": event, **summary(request)}
    elif notice is not None:
        workspace_id, title, body = notice["workspace_id"], notice["subject"], notice["body"]
        data = {"event": event, "tenant_uuid": notice["workspace_id"], **notice.get("details", {})}
    else:
        return 0
    devices = await Device.filter(workspace_id=workspace_id, user_id__in=user_ids,
                                  status="active").order_by("created_at")
    provider = push_provider()
    for device in devices:
        await provider.send(device=device, title=title, body=body, data=data)
    return len(devices)


async def security_notice_to_approvers(notice: SecurityNotice) -> None:
    """The approver channel of domain/notifications.py: a security notice of a workspace (a backup
    started, ownership transferred, ...) is pushed to the paired devices of everyone who confirms
    changes there now (the owner, the administrators, the members of groups that enabled rules use)."""
    approvers = set(await pools.owner_approvers(notice.workspace_id)) | set(
        await pools.admin_approvers(notice.workspace_id))
    for group_id in await ActionRule.filter(workspace_id=notice.workspace_id, enabled=True,
                                            group_id__isnull=False).values_list("group_id", flat=True):
        approvers |= set(await pools.group_active_members(workspace_id=notice.workspace_id, group_id=group_id) or [])  # type: ignore[arg-type]  # flat values_list
    if approvers:
        await add_command(actor_name=PUSH, workspace_id=notice.workspace_id, payload={
            "request_id": None, "event": notice.action, "user_ids": sorted(str(u) for u in approvers),
            "notice": {"workspace_id": str(notice.workspace_id), "subject": notice.subject,
                       "body": notice.body, "details": json.loads(json.dumps(notice.details, default=str))}})


register_approver_channel(security_notice_to_approvers)
