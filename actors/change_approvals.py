"""Change approvals (queue ``change_approvals``): apply approved changes, push notifications, expiry.

The apply actor replays a change through the gated domain that registered its action
(domain/change_approvals/registry.py), so this module imports every gated domain: a worker that
loads it can apply every action.
"""

from __future__ import annotations

import logging

from core.jobs import actor, command_actor
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import groups, tags, users, whitelist
from domain.change_approvals import notify, registry, requests, rules
from domain.policies import service as policies

#: The gated domains whose registrations the apply actor needs (imported for that effect).
GATED_DOMAINS = (groups, policies, rules, tags, users, whitelist)
if registry.missing():  # a gated domain that stopped registering its action would fail every apply of it
    raise RuntimeError(f"change approval actions not registered: {', '.join(registry.missing())}")

logger = logging.getLogger(__name__)


@command_actor(requests.APPLY)
async def apply(*, command: Command, request_id: str) -> None:
    """Re-validate and apply an APPROVED request (a second delivery finds it no longer APPROVED)."""
    status = await requests.apply_request(request_id=request_id)
    logger.info("change_approvals.apply: %s -> %s", request_id, status)


@command_actor(notify.PUSH)
async def push(*, command: Command, request_id: str | None, event: str, user_ids: list[str],
               notice: dict | None = None) -> None:
    """Hand one event's notifications to the push provider, one per active paired device."""
    await notify.deliver_push(request_id=request_id, event=event, user_ids=user_ids, notice=notice)


@actor(requests.EXPIRE, max_retries=3)
async def expire() -> None:
    """Expire pending requests past their lifetime (scheduled; idempotent)."""
    async with unit_of_work():
        count = await requests.expire_due()
    if count:
        logger.info("change_approvals.expire: %d request(s) expired", count)
