"""The gas station's actors (queue ``gas_station``, in the Procfile's general ``worker`` pool): thin
wrappers of domain.withdrawals.refuels.

``gas_station.check_refuel`` is an outbox command (a redelivery finds it done; a repeated check
finds the address's live refuel and does nothing). ``gas_station.retry`` is scheduled: each item
runs in its own unit of work, so one failure does not hold up the others.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Awaitable, Callable

from core.jobs import actor, command_actor
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain.gas_station.autofuel import CHECK_REFUEL
from domain.withdrawals import refuels

logger = logging.getLogger(__name__)

@command_actor(CHECK_REFUEL)
async def check_refuel(*, command: Command, workspace_id: str, vault_id: str, currency_id: str,
                       reason: str = "") -> None:
    """Check one vault's gas at one network and refuel it when below threshold."""
    outcome = await refuels.check_refuel(workspace_id=workspace_id, vault_id=vault_id, currency_id=currency_id,
                                         reason=reason)
    logger.info("gas station check of vault %s (%s, %s): %s %s", vault_id, currency_id, reason, outcome.action,
                outcome.reason or "")


async def _each(label: str, run: Callable[[], Awaitable[object]]) -> None:
    try:
        async with unit_of_work():
            await run()
    except Exception:  # noqa: BLE001 - one item's trouble must not stop the sweep
        logger.exception("gas_station.retry: %s failed", label)


@actor(refuels.RETRY, max_retries=0)
async def retry() -> None:
    """Held-back refuels due again; in-flight refuels whose withdrawal is final; withdrawals
    waiting for gas (resumed when the gas is there, else their address checked again)."""
    for refuel in await refuels.due_held_back():
        await _each(f"held-back refuel {refuel.id}", partial(refuels.retry_held_back, refuel_id=refuel.id))
    for refuel_id in await refuels.in_flight():
        await _each(f"refuel {refuel_id}", partial(refuels.close_refuel, refuel_id=refuel_id))
    for transaction_id in await refuels.waiting_for_gas():
        await _each(f"withdrawal {transaction_id}", partial(refuels.attend_waiting, transaction_id=transaction_id))
