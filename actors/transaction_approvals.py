"""Transaction approvals (queue ``transaction_approvals``): the scheduled expiry, and declining a
withdrawal whose approvals cannot be met; thin wrappers of domain.transaction_approvals, each
withdrawal in its own unit of work.

Importing domain.policies here installs the ``policy`` check in every worker process.
"""

from __future__ import annotations

import domain.policies  # noqa: F401 - installs the policy check, the tag provider, the window listener
from core.jobs import actor, command_actor
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import transaction_approvals


@actor(transaction_approvals.EXPIRE, max_retries=0)
async def expire() -> None:
    """End withdrawals whose approvals did not complete before their expiry."""
    for transaction_id in await transaction_approvals.due_for_expiry():
        async with unit_of_work():
            await transaction_approvals.expire(transaction_id=transaction_id)


@command_actor(transaction_approvals.SETTLE)
async def settle(*, command: Command, transaction_id: str) -> None:
    """Decline a withdrawal whose approval requirements cannot be met (idempotent)."""
    await transaction_approvals.settle(transaction_id=transaction_id)
