"""Company jobs."""

from __future__ import annotations

import uuid

from core.jobs import command_actor
from core.outbox import Command
from domain import companies


@command_actor(companies.REVIEW_APPLICATION)
async def review_application(*, command: Command, application_id: str) -> None:
    """Take a submitted company application into review."""
    await companies.take_application_into_review(application_id=uuid.UUID(application_id))
