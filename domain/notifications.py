"""Telling people: email through the outbox, and security notices to a workspace's administrators.

- :func:`email` queues one message (outbox command ``notifications.send_email``, written in the
  caller's transaction, sent after commit by the actor through :mod:`core.mail`). The body may
  hold a secret (an invitation's acceptance token), so it is stored sealed in the command.
- :func:`announce_to_admins` is what a security-relevant change calls (a backup started, a backup
  file downloaded, ownership transferred): every OWNER, ADMIN and NON_SIGNING_ADMIN person of the
  workspace gets an email, and every registered *approver channel* gets the notice.

Approver channels: change approvals do not exist yet. When they do, their notification channel
(push to the approvers' paired devices, WebSocket) registers itself here with
:func:`register_approver_channel`, and every security notice reaches the approvers too. Machine
callers learn of the same changes from the webhook events the callers of this module emit.
"""

from __future__ import annotations

import base64
import uuid
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from core import mail
from core.outbox import add_command
from core.sealing import seal, unseal
from domain.permissions import WorkspaceRole
from models.users import WorkspaceMember

SEND_EMAIL = "notifications.send_email"

#: Roles whose holders are told of security-relevant changes of their workspace.
ADMIN_ROLES = (WorkspaceRole.OWNER, WorkspaceRole.ADMIN, WorkspaceRole.NON_SIGNING_ADMIN)


@dataclass(frozen=True)
class SecurityNotice:
    """A security-relevant change of one workspace, as its administrators are told of it."""

    workspace_id: uuid.UUID
    #: The audit action it reports, e.g. ``backup.file_downloaded``.
    action: str
    subject: str
    body: str
    #: The members (user ids) told by email.
    recipients: list[uuid.UUID] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


#: A notification channel of the approvers: called with each notice, in the caller's transaction.
ApproverChannel = Callable[[SecurityNotice], Awaitable[None]]

_approver_channels: list[ApproverChannel] = []


def register_approver_channel(channel: ApproverChannel) -> None:
    """Add a channel (the change approvals' push/WebSocket notifier) that every notice reaches."""
    if channel not in _approver_channels:
        _approver_channels.append(channel)


def unregister_approver_channel(channel: ApproverChannel) -> None:
    if channel in _approver_channels:
        _approver_channels.remove(channel)


async def email(*, to: list[str], subject: str, body: str, workspace_id: uuid.UUID | None = None) -> None:
    """Queue one email (sent after the caller's transaction commits)."""
    if not to:
        return
    sealed = base64.b64encode(seal(body.encode())).decode()
    await add_command(actor_name=SEND_EMAIL, payload={"to": list(to), "subject": subject, "sealed_body": sealed},
                      workspace_id=workspace_id)


async def send_email(*, to: list[str], subject: str, sealed_body: str) -> None:
    """The actor's work: open the body and hand the message to the mail transport."""
    body = unseal(base64.b64decode(sealed_body)).decode()
    await mail.send(to=to, subject=subject, body=body)


async def announce_to_admins(*, workspace_id: uuid.UUID, action: str, subject: str, body: str,
                             details: dict[str, Any] | None = None) -> SecurityNotice:
    """Tell every OWNER and (non-signing) ADMIN of the workspace, and every approver channel."""
    members = await WorkspaceMember.filter(workspace_id=workspace_id, role__in=[r.value for r in ADMIN_ROLES],
                                           user__status="active").prefetch_related("user")
    people = [m.user for m in members if m.user.user_type == "user" and m.user.email]
    notice = SecurityNotice(workspace_id=workspace_id, action=action, subject=subject, body=body,
                            recipients=[p.id for p in people], details=dict(details or {}))
    await email(to=sorted({p.email for p in people}), subject=subject, body=body, workspace_id=workspace_id)
    for channel in list(_approver_channels):
        await channel(notice)
    return notice
