"""Sending a webhook's due deliveries in batches: the high-throughput path of delivery.

:func:`drain` is what the ``webhooks.fan_out`` and ``webhooks.drain`` actors run for each
webhook that has due deliveries. It takes as many of the webhook's concurrency slots as are
free (the same Redis semaphore as :func:`domain.webhooks.delivery.deliver`, so the limit holds
across both paths and every worker), then repeats three short steps until nothing is due:

1. **claim** (:func:`claim_batch`): one transaction locks up to one delivery per slot
   (``FOR UPDATE SKIP LOCKED``: concurrent drains never wait on each other), counts the
   attempt, sets its lease and writes the attempt's history row, before any request leaves;
2. **send** the signed requests concurrently, one per slot, outside any transaction;
3. **record** (:func:`record_batch`): one transaction stores every outcome. Successes are
   written together; a failure goes through :func:`domain.webhooks.delivery.record_attempt`,
   so the retry schedule, the disable counting and the "webhook disabled" rules are the very
   same code as the one-message-per-attempt path.

A drain that finds no free slot marks the webhook "parked" and returns: the drain holding the
slots re-checks after it clears that mark, so a delivery committed while it ran is never left
waiting (see :func:`drain`). Delivery stays at least once and unordered (docs/webhooks.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Protocol

from tortoise import connections

from core import clock
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain.webhooks.catalogue import (
    DRAIN_MAX_SECONDS,
    LEASE_MARGIN,
    NO_OUTCOME,
    STATUS_ACTIVE,
)
from domain.webhooks.delivery import (
    AttemptOutcome,
    DeliveryJob,
    Enqueue,
    Send,
    _ms_until,
    hand_off,
    record_attempt,
    signing_secrets,
)
from domain.webhooks.events import DueDelivery
from models.webhooks import Webhook

logger = logging.getLogger(__name__)

#: A success refreshes the webhook's ``last_success_at`` at most this often (as delivery.py does).
_SUCCESS_STAMP_INTERVAL = timedelta(seconds=1)

_CLAIM = """
WITH due AS (
    SELECT id FROM webhook_deliveries
    WHERE webhook_id = $1 AND status = 'pending' AND next_attempt_at <= $2
      AND (lease_expires_at IS NULL OR lease_expires_at <= $2)
    ORDER BY next_attempt_at, id
    LIMIT $3
    FOR UPDATE SKIP LOCKED
)
UPDATE webhook_deliveries AS d
SET attempt_count = d.attempt_count + 1, lease_expires_at = $4, parked_at = NULL,
    window_started_at = COALESCE(d.window_started_at, $2), updated_at = $2
FROM due, webhook_events AS e
WHERE d.id = due.id AND e.id = d.event_id
RETURNING d.id, d.event_id, d.attempt_count, e.payload
"""

_WRITE_ATTEMPTS = """
INSERT INTO webhook_attempts (id, delivery_id, attempt_number, started_at, duration_ms, error, succeeded)
SELECT new.id, new.delivery_id, new.attempt_number, $4, 0, $5, false
FROM unnest($1::uuid[], $2::uuid[], $3::int[]) AS new(id, delivery_id, attempt_number)
"""

_RECORD_ATTEMPTS = """
UPDATE webhook_attempts AS a
SET started_at = o.started_at, duration_ms = o.duration_ms, response_status = o.response_status,
    response_body = o.response_body, error = NULL, succeeded = true
FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
     AS o(delivery_id, attempt_number, started_at, duration_ms, response_status, response_body)
WHERE a.delivery_id = o.delivery_id AND a.attempt_number = o.attempt_number
"""

_RECORD_SUCCESSES = """
UPDATE webhook_deliveries AS d
SET status = 'succeeded', finished_at = $7, updated_at = $7, next_attempt_at = NULL, lease_expires_at = NULL,
    parked_at = NULL, last_attempt_at = o.started_at, last_response_status = o.response_status,
    last_response_body = o.response_body, last_error = NULL
FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
     AS o(delivery_id, attempt_number, started_at, duration_ms, response_status, response_body)
WHERE d.id = o.delivery_id AND d.attempt_count = o.attempt_number AND d.status IN ('pending', 'retrying')
"""

_STAMP_SUCCESS = """
UPDATE webhooks SET consecutive_failures = 0, last_success_at = $2, updated_at = $2
WHERE id = $1 AND (consecutive_failures <> 0 OR last_success_at IS NULL OR last_success_at < $3)
"""


async def claim_batch(*, webhook_id: uuid.UUID, limit: int) -> list[DeliveryJob]:
    """Lease up to ``limit`` pending deliveries of an active webhook and write their attempts.

    Only ``pending`` ones (first attempts, replays): a retry stays with the delayed message
    its failure scheduled (delivery.py), so the retry schedule is exactly that path's.
    Call it in a unit of work; the leases and the history rows commit together. A webhook that
    is disabled or deleted gets nothing claimed (disabling already failed its open deliveries).
    """
    now = clock.now()
    webhook = await Webhook.get_or_none(id=webhook_id)
    if webhook is None or webhook.deleted_at is not None or webhook.status != STATUS_ACTIVE:
        return []
    connection = connections.get("default")
    lease = now + timedelta(seconds=get_settings().webhook_timeout_seconds) + LEASE_MARGIN
    rows = await connection.execute_query_dict(_CLAIM, [webhook_id, now, limit, lease])
    if not rows:
        return []
    await connection.execute_query(_WRITE_ATTEMPTS, [
        [uuid.uuid4() for _ in rows], [row["id"] for row in rows], [row["attempt_count"] for row in rows],
        now, NO_OUTCOME])
    secrets = signing_secrets(webhook, now=now)
    return [DeliveryJob(delivery_id=row["id"], webhook_id=webhook.id, event_id=row["event_id"], url=webhook.url,
                        body=row["payload"].encode(), attempt=row["attempt_count"], secrets=secrets)
            for row in rows]


async def record_batch(results: list[tuple[DeliveryJob, AttemptOutcome]]) -> list[Enqueue]:
    """Store the outcomes of a batch (in a unit of work); returns the retries to enqueue."""
    if not results:
        return []
    now = clock.now()
    successes = [(job, outcome) for job, outcome in results if outcome.succeeded]
    retries: list[Enqueue] = []
    if successes:
        connection = connections.get("default")
        columns = [
            [job.delivery_id for job, _ in successes], [job.attempt for job, _ in successes],
            [outcome.started_at for _, outcome in successes], [outcome.duration_ms for _, outcome in successes],
            [outcome.response_status for _, outcome in successes],
            [outcome.response_body for _, outcome in successes],
        ]
        await connection.execute_query(_RECORD_ATTEMPTS, columns)
        await connection.execute_query(_RECORD_SUCCESSES, [*columns, now])
        for webhook_id in {job.webhook_id for job, _ in successes}:
            await connection.execute_query(_STAMP_SUCCESS, [webhook_id, now, now - _SUCCESS_STAMP_INTERVAL])
    for job, outcome in results:
        if outcome.succeeded:
            continue
        recorded = await record_attempt(job=job, outcome=outcome)
        if recorded.retry_at is not None and recorded.retry_attempt is not None:
            retries.append(Enqueue(DueDelivery(job.delivery_id, recorded.retry_attempt), _ms_until(recorded.retry_at)))
        if recorded.webhook_disabled:
            logger.warning("webhooks: webhook %s disabled after consecutive failed deliveries", job.webhook_id)
    return retries


class DrainSlots(Protocol):
    """What :func:`drain` needs of the per-webhook limit (:class:`core.slots.ConcurrencySlots`)."""

    async def take_many(self, key: object, holders: list[str]) -> list[str]: ...
    async def release_many(self, key: object, holders: list[str]) -> None: ...
    async def clear_parked(self, key: object) -> None: ...
    async def is_parked(self, key: object) -> bool: ...
    async def wakeable(self, key: object) -> int: ...
    async def mark_parked(self, key: object) -> None: ...


@dataclass
class DrainResult:
    """What one :func:`drain` did, and the messages the caller must send after it."""

    sent: int = 0
    succeeded: int = 0
    #: True when the webhook still had due deliveries when the drain stopped (its time ran out).
    unfinished: bool = False
    to_enqueue: list[Enqueue] = field(default_factory=list)


async def drain(*, webhook_id: uuid.UUID, send: Send, slots: DrainSlots, limit: int,
                max_seconds: float = DRAIN_MAX_SECONDS) -> DrainResult:
    """Send the webhook's due deliveries, at most ``limit`` at once, until none is due.

    Returns at once (nothing sent) when another drain or attempt holds every slot: the holder
    re-checks the parked mark this leaves. Stops after ``max_seconds`` with ``unfinished`` set,
    so the caller can hand the rest to a fresh message.
    """
    result = DrainResult()
    deadline = time.monotonic() + max_seconds
    holder_prefix = f"drain:{uuid.uuid4()}:"
    while True:
        holders = await slots.take_many(webhook_id, [f"{holder_prefix}{i}" for i in range(limit)])
        if not holders:
            return result  # the slots' holders will see the parked mark
        try:
            cleared = False
            while True:
                if time.monotonic() > deadline:
                    result.unfinished = True
                    return result
                async with unit_of_work():
                    jobs = await claim_batch(webhook_id=webhook_id, limit=len(holders))
                if not jobs:
                    if cleared:
                        break
                    # Anything committed before this clear is seen by the claim that follows;
                    # anything refused a slot after it leaves the mark we check once released.
                    await slots.clear_parked(webhook_id)
                    cleared = True
                    continue
                cleared = False
                outcomes = await asyncio.gather(*(send(job) for job in jobs))
                async with unit_of_work():
                    result.to_enqueue.extend(await record_batch(list(zip(jobs, outcomes))))
                result.sent += len(jobs)
                result.succeeded += sum(1 for outcome in outcomes if outcome.succeeded)
                # Taking a slot again refreshes its expiry (a long drain keeps what it holds).
                await slots.take_many(webhook_id, holders)
        finally:
            await slots.release_many(webhook_id, holders)
        # A retry that parked while this drain held every slot may have lost its Redis mark to
        # the clear above, and claims take only pending deliveries: the database says who waits.
        # Retries parked by the one-attempt path get the freed slots through their own messages.
        async with unit_of_work():
            woken = await hand_off(webhook_id=webhook_id, free_slots=limit)
        result.to_enqueue.extend(Enqueue(due) for due in woken)
        if not await slots.is_parked(webhook_id):
            return result

