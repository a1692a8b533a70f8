"""Reading the email the service queued (outbox commands ``notifications.send_email``)."""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

from core.outbox import Command
from core.sealing import unseal
from domain.notifications import SEND_EMAIL


@dataclass(frozen=True)
class QueuedEmail:
    to: list[str]
    subject: str
    body: str


async def queued_emails(to: str | None = None) -> list[QueuedEmail]:
    """Every email queued so far (oldest first), optionally only those to ``to``."""
    found = []
    for command in await Command.filter(actor_name=SEND_EMAIL).order_by("created_at"):
        payload = command.payload
        body = unseal(base64.b64decode(payload["sealed_body"])).decode()
        if to is None or to in payload["to"]:
            found.append(QueuedEmail(to=payload["to"], subject=payload["subject"], body=body))
    return found


async def invitation_token(email: str) -> str:
    """The acceptance token of the newest invitation emailed to ``email``."""
    emails = await queued_emails(email)
    assert emails, f"no email was queued to {email}"
    match = re.search(r"\bcwi_[A-Za-z0-9_-]+", emails[-1].body)
    assert match, emails[-1].body
    return match.group(0)
