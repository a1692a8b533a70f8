"""The withdrawal pipeline's actors (queue ``withdrawals``): thin wrappers of domain.withdrawals.

The four steps are outbox command actors: a redelivered message finds its command done, and each
step also checks the withdrawal's status under its row lock, so a repeated command is harmless.
``withdrawals.track`` and ``withdrawals.expire`` are scheduled; each withdrawal is handled in
its own unit of work, so one failure does not hold up the others.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from typing import Awaitable, Callable

import domain.policies  # noqa: F401 - installs the policy check (first) and the AML policy's evaluator
from core.jobs import actor, command_actor, execute_command
from core.outbox import Command, send_kept_back
from core.unit_of_work import unit_of_work
from domain.aml import screening as aml_screening
from domain.withdrawals import ledger, lifecycle, pipeline, replacement
from domain.withdrawals.create import CHECK

logger = logging.getLogger(__name__)

# The check stage's checks, in the process that runs it, in order: the policy engine (installed
# by importing domain.policies, docs/policies.md), then AML screening (docs/aml.md).
aml_screening.install()


@actor(CHECK)
async def check(command_id: str) -> None:
    """pending → checks → approved | awaiting_approvals | declined; then, approved with its lane
    free, its sign step here (:func:`carry_on`). An outbox command."""
    following: list[Command | None] = []

    async def handler(*, command: Command, transaction_id: str) -> None:
        following.append(await pipeline.run_checks(transaction_id=transaction_id, carried=True))

    await execute_command(command_id, handler, lock=ledger.WITHDRAWAL_ROW)
    await carry_on(following[0] if following else None)


@command_actor(pipeline.SIGN, lock=ledger.WITHDRAWAL_ROW)
async def sign(*, command: Command, transaction_id: str) -> None:
    """approved → signing: build the transfer and request its one threshold signature."""
    await pipeline.start_signing(transaction_id=transaction_id)


@actor(pipeline.COLLECT_SIGNATURE)
async def collect_signature(command_id: str) -> None:
    """signing → awaiting_broadcast once the signature exists (else look again later); then its
    broadcast and the next sign step of the lane here (:func:`carry_on`). An outbox command."""
    following: list[Command | None] = []

    async def handler(*, command: Command, transaction_id: str, poll: int = 0) -> None:
        following.append(await pipeline.collect_signature(transaction_id=transaction_id, poll=poll, carried=True))

    await execute_command(command_id, handler, lock=ledger.WITHDRAWAL_ROW)
    await carry_on(following[0] if following else None)


#: Withdrawals one ``withdrawals.signed`` message carries on at once (each its own units of work).
SIGNED_CONCURRENCY = 8
#: A retry limit no run reaches: a step run by :func:`carry_on` is never failed for good there.
NEVER_FINAL = 2**31


@actor(pipeline.SIGNED)
async def signed(session_ids: list[str] | list[list[str]]) -> None:
    """Signing sessions of withdrawals ended: collect each withdrawal's signature now (its own
    unit of work; the collect_signature polls cover a lost or failed wake-up), then carry it on
    here: its broadcast, then the sign step of the next withdrawal of its lane (:func:`carry_on`)."""
    found = await pipeline.withdrawals_signed(session_ids=session_ids)  # their purposes name them
    limit = asyncio.Semaphore(SIGNED_CONCURRENCY)

    async def one(transaction_id: uuid.UUID) -> None:
        async with limit:
            async with unit_of_work():
                issued = await pipeline.collect_signature(transaction_id=transaction_id, reschedule=False,
                                                          carried=True)
            await carry_on(issued)

    await asyncio.gather(*(one(transaction_id) for transaction_id in found))


async def carry_on(issued: Command | None) -> None:
    """Run the pipeline step just committed as an outbox command here and now, and the one it
    issues in turn: a withdrawal's broadcast right after its signature is stored, then the sign
    step of the next withdrawal of the lane, without a queue hop each.

    The command was kept back from the enqueue after its commit (core.outbox.keep_back, by the
    step that issued it, told it is ``carried``: domain.withdrawals.pipeline.carried_step): it is
    run here (core.jobs.execute_command locks its row and marks it done in the step's
    transaction), and sent to the queue only when that run fails, so its message and its
    retries take it from there. A process that dies before or during the run leaves the
    command pending and never enqueued: the outbox relay sends it (the outbox's durability is
    unchanged; only its wait, outbox_relay_after_seconds, is that of a broker outage). A
    command already done or failed (run elsewhere: a relay, a duplicate) is left as it is."""
    steps: dict[str, Callable[..., Awaitable[Command | None]]] = {
        pipeline.BROADCAST: functools.partial(pipeline.broadcast, carried=True), pipeline.SIGN: pipeline.start_signing}
    while issued is not None and issued.actor_name in steps:
        step, following = steps[issued.actor_name], []

        async def handler(*, command: Command, transaction_id: str, **_: object) -> None:
            following.append(await step(transaction_id=transaction_id))

        try:
            # Never marked failed for good from here (that is its own message's last retry's call).
            await execute_command(str(issued.id), handler, max_retries=NEVER_FINAL, lock=ledger.WITHDRAWAL_ROW)
        except Exception:  # noqa: BLE001 - recorded on the command; its own message retries it
            logger.warning("withdrawals: %s of command %s failed here; its message retries it", issued.actor_name,
                           issued.id, exc_info=True)
            await send_kept_back(issued)
            return
        issued = following[0] if following else None


@actor(pipeline.BROADCAST)
async def broadcast(command_id: str) -> None:
    """awaiting_broadcast → broadcast: submit the stored signed transfer; then the next sign
    step of the lane here (:func:`carry_on`). An outbox command."""
    following: list[Command | None] = []

    async def handler(*, command: Command, transaction_id: str, **_: object) -> None:
        following.append(await pipeline.broadcast(transaction_id=transaction_id, carried=True))

    await execute_command(command_id, handler, lock=ledger.WITHDRAWAL_ROW)
    await carry_on(following[0] if following else None)


@command_actor(replacement.COLLECT_REPLACEMENT, lock=ledger.WITHDRAWAL_ROW)
async def collect_replacement(*, command: Command, transaction_id: str, poll: int = 0) -> None:
    """A stuck transfer's replacement: store its signature once signed (else look again later)."""
    await replacement.collect_replacement(transaction_id=transaction_id, poll=poll)


@command_actor(replacement.BROADCAST_REPLACEMENT, lock=ledger.WITHDRAWAL_ROW)
async def broadcast_replacement(*, command: Command, transaction_id: str) -> None:
    """Submit a stuck transfer's stored signed replacement."""
    await replacement.broadcast_replacement(transaction_id=transaction_id)


#: Broadcast withdrawals tracked at once by one run (each in its own unit of work and connection).
TRACK_CONCURRENCY = 8


@actor(pipeline.TRACK, max_retries=0)
async def track() -> None:
    """Confirmations and finality of every broadcast withdrawal (the next tick is the retry)."""
    limit = asyncio.Semaphore(TRACK_CONCURRENCY)

    async def one(withdrawal: pipeline.Tracked) -> None:
        async with limit:
            try:
                # The network is asked first, with no transaction open: only a change is written.
                observed = await pipeline.observe(withdrawal)
                if observed is not None:
                    async with unit_of_work():
                        await pipeline.track(transaction_id=withdrawal.id, observed=observed)
            except Exception:  # noqa: BLE001 - one withdrawal's network trouble must not stop the others
                logger.exception("withdrawals.track: %s failed", withdrawal.id)

    await asyncio.gather(*(one(withdrawal) for withdrawal in await pipeline.tracked_withdrawals()))


@actor(pipeline.EXPIRE, max_retries=0)
async def expire() -> None:
    """Expire withdrawals past their time limit; issue again the steps that stalled."""
    for transaction_id in await lifecycle.due_for_expiry():
        async with unit_of_work():
            await lifecycle.expire(transaction_id=transaction_id)
    for transaction_id in await lifecycle.stalled():
        async with unit_of_work():
            await lifecycle.resume_stalled(transaction_id=transaction_id)
