"""Email to people (queue ``notifications``): invitations and security notices."""

from __future__ import annotations

from core.jobs import command_actor
from core.outbox import Command
from domain import notifications


@command_actor(notifications.SEND_EMAIL)
async def send_email(*, command: Command, to: list[str], subject: str, sealed_body: str) -> None:
    """Send one queued message through the configured mail backend."""
    await notifications.send_email(to=to, subject=subject, sealed_body=sealed_body)
