"""Company jobs."""

from __future__ import annotations

import uuid

from custody.jobs import command_actor
from domain import companies
from models.outbox import Command


@command_actor(companies.REVIEW_APPLICATION)
async def review_application(*, command: Command, application_id: str) -> None:
    """Take a submitted company application into review."""
    await companies.take_application_into_review(application_id=uuid.UUID(application_id))
