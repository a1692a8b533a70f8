"""Sending a webhook's due deliveries in a stream: the high-throughput path of delivery.

:func:`drain` is what the ``webhooks.fan_out``, ``webhooks.drain`` and ``webhooks.enqueue_due``
(replay) actors run for each webhook that has pending deliveries. It takes as many of the
webhook's concurrency slots as are free (the same Redis semaphore as
:func:`domain.webhooks.delivery.deliver`, so the limit holds across both paths and every
worker), then streams the pending deliveries through them (:func:`_stream`) until none is due:

1. **claim** (:func:`claim_batch`): one statement, one round trip, checks that the webhook is
   still active, locks up to :data:`_AHEAD` deliveries per held slot (``FOR UPDATE SKIP
   LOCKED``: concurrent drains never wait on each other), counts each one's attempt, sets its
   lease and writes the attempt's history row, before any request leaves;
2. **send**: one signed request per held slot in flight, outside any transaction, on the
   worker's pooled keep-alive session (domain/webhooks/sender.py); the next claimed delivery
   leaves as soon as a request finishes;
3. **record and claim** (:func:`record_successes_then_claim`): when fewer than one delivery per
   slot is left claimed ahead, one statement records every success so far (attempts,
   deliveries and the webhook's success stamp) and claims the next deliveries into the freed
   room. A failure is recorded at once through :func:`domain.webhooks.delivery.record_attempt`
   (:func:`record_batch`, one transaction), so the retry schedule, the disable counting and
   the "webhook disabled" rules are the very same code as the one-message-per-attempt path;
   nothing new is sent until it is recorded, and what was claimed ahead is given back unsent
   (:func:`release_unsent`; failed "webhook disabled" if that failure disabled the webhook).

The slots' expiry is refreshed once a second. A worker that dies between claim and record
leaves leased deliveries with a NO_OUTCOME attempt: once their lease runs out a later claim
makes the next attempt (at least once).

A drain that finds no free slot marks the webhook "parked" and returns: the drain holding the
slots re-checks after it clears that mark, so a delivery committed while it ran is never left
waiting (see :func:`drain`). Delivery stays at least once and unordered (docs/webhooks.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

from tortoise import connections

from core import clock
from core.sealing import unseal
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain.webhooks.catalogue import (
    DRAIN_MAX_SECONDS,
    ERROR_WEBHOOK_DELETED,
    ERROR_WEBHOOK_DISABLED,
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
    fail_open_deliveries,
    hand_off,
    record_attempt,
    secrets_in_force,
)
from domain.webhooks.events import DueDelivery
from models.webhooks import Webhook

logger = logging.getLogger(__name__)

#: A success refreshes the webhook's ``last_success_at`` at most this often (as delivery.py does).
_SUCCESS_STAMP_INTERVAL = timedelta(seconds=1)
#: A drain refreshes the expiry of the slots it holds this often (they live for the attempt
#: timeout plus the lease margin, far longer; a drain lasts at most DRAIN_MAX_SECONDS anyway).
_SLOT_REFRESH_SECONDS = 1.0
#: A drain holds up to this many deliveries per held slot: the one in flight and the ones claimed
#: ahead of it (leased, their attempt counted), so that a finishing request is followed at once.
_AHEAD = 4

#: One statement, one round trip (its own transaction when run outside one): the webhook is
#: still active, up to $3 of its due pending deliveries are locked (SKIP LOCKED) and leased, their
#: attempts counted, and each attempt's history row written, before any request leaves. It
#: returns what the requests need, the webhook's URL and sealed secrets included.
_CLAIM_CTES = """
hook AS (
    SELECT id, url, secret_sealed, previous_secret_sealed, previous_secret_expires_at FROM webhooks
    WHERE id = ${webhook} AND deleted_at IS NULL AND status = 'active'
), due AS (
    SELECT d.id FROM webhook_deliveries AS d, hook
    WHERE d.webhook_id = hook.id AND d.status = 'pending' AND d.next_attempt_at <= ${now}
      AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ${now}) AND d.id <> ALL(${exclude}::uuid[])
    ORDER BY d.next_attempt_at, d.id
    LIMIT ${limit}
    FOR UPDATE OF d SKIP LOCKED
), claimed AS (
    UPDATE webhook_deliveries AS d
    SET attempt_count = d.attempt_count + 1, lease_expires_at = ${lease}, parked_at = NULL,
        window_started_at = COALESCE(d.window_started_at, ${now}), updated_at = ${now}
    FROM due
    WHERE d.id = due.id
    RETURNING d.id, d.event_id, d.attempt_count
), attempts AS (
    INSERT INTO webhook_attempts (id, delivery_id, attempt_number, started_at, duration_ms, error, succeeded)
    SELECT gen_random_uuid(), claimed.id, claimed.attempt_count, ${now}, 0, ${no_outcome}, false FROM claimed
)
SELECT claimed.id, claimed.event_id, claimed.attempt_count, e.payload, hook.url, hook.secret_sealed,
       hook.previous_secret_sealed, hook.previous_secret_expires_at
FROM claimed JOIN webhook_events AS e ON e.id = claimed.event_id CROSS JOIN hook
"""


def _numbered(fragment: str, **numbers: int) -> str:
    for name, number in numbers.items():
        fragment = fragment.replace("${" + name + "}", f"${number}")
    return fragment


#: One statement for every success of a batch: the attempts' outcomes, the deliveries finished,
#: and the webhooks' success stamp (refreshed at most every second when nothing else changes).
_SUCCESS_CTES = """
o AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[])
        AS o(delivery_id, attempt_number, started_at, duration_ms, response_status, response_body)
), recorded AS (
    UPDATE webhook_attempts AS a
    SET started_at = o.started_at, duration_ms = o.duration_ms, response_status = o.response_status,
        response_body = o.response_body, error = NULL, succeeded = true
    FROM o
    WHERE a.delivery_id = o.delivery_id AND a.attempt_number = o.attempt_number
), finished AS (
    UPDATE webhook_deliveries AS d
    SET status = 'succeeded', finished_at = $7, updated_at = $7, next_attempt_at = NULL, lease_expires_at = NULL,
        parked_at = NULL, last_attempt_at = o.started_at, last_response_status = o.response_status,
        last_response_body = o.response_body, last_error = NULL
    FROM o
    WHERE d.id = o.delivery_id AND d.attempt_count = o.attempt_number AND d.status IN ('pending', 'retrying')
), stamped AS (
    UPDATE webhooks SET consecutive_failures = 0, last_success_at = $7, updated_at = $7
    WHERE id = ANY($8::uuid[]) AND (consecutive_failures <> 0 OR last_success_at IS NULL OR last_success_at < $9)
)
"""

#: One statement, one round trip (its own transaction when run outside one): the webhook is
#: still active, up to ``limit`` of its due pending deliveries are locked (SKIP LOCKED) and
#: leased, their attempts counted, and each attempt's history row written, before any request
#: leaves. It returns what the requests need, the webhook's URL and sealed secrets included.
_CLAIM = "WITH " + _numbered(_CLAIM_CTES, webhook=1, now=2, limit=3, lease=4, no_outcome=5, exclude=6)

#: One statement for every success of a batch: the attempts' outcomes, the deliveries finished,
#: and the webhooks' success stamp (refreshed at most every second when nothing else changes).
_RECORD_SUCCESSES = "WITH " + _SUCCESS_CTES + "SELECT 1"

#: Both in one statement and one round trip: the successes of a batch recorded and the next
#: batch claimed (never one of the deliveries just recorded: a row is changed once per statement).
_RECORD_SUCCESSES_THEN_CLAIM = "WITH " + _SUCCESS_CTES + ", " + _numbered(
    _CLAIM_CTES, webhook=10, now=7, limit=11, lease=12, no_outcome=13, exclude=1)

#: Unsealed signing secrets by their sealed bytes (a webhook's secrets are unsealed once per
#: process, not once per batch); a rotation seals a new secret, hence a new key.
_unsealed: dict[bytes, str] = {}


def _secret(sealed: bytes) -> str:
    found = _unsealed.get(sealed)
    if found is None:
        if len(_unsealed) > 1000:
            _unsealed.clear()
        found = _unsealed[sealed] = unseal(sealed).decode()
    return found


def _lease(now: datetime) -> datetime:
    return now + timedelta(seconds=get_settings().webhook_timeout_seconds) + LEASE_MARGIN


def _jobs(webhook_id: uuid.UUID, rows: list[dict[str, Any]], *, now: datetime) -> list[DeliveryJob]:
    """The claimed rows as the requests to send, signed with the secrets valid now."""
    if not rows:
        return []
    first = rows[0]
    secrets = secrets_in_force(sealed=first["secret_sealed"], previous_sealed=first["previous_secret_sealed"],
                               previous_expires_at=first["previous_secret_expires_at"], now=now, unsealed=_secret)
    return [DeliveryJob(delivery_id=row["id"], webhook_id=webhook_id, event_id=row["event_id"], url=first["url"],
                        body=row["payload"].encode(), attempt=row["attempt_count"], secrets=secrets)
            for row in rows]


def _success_columns(successes: list[tuple[DeliveryJob, AttemptOutcome]], now: datetime) -> list[Any]:
    return [
        [job.delivery_id for job, _ in successes], [job.attempt for job, _ in successes],
        [outcome.started_at for _, outcome in successes], [outcome.duration_ms for _, outcome in successes],
        [outcome.response_status for _, outcome in successes], [outcome.response_body for _, outcome in successes],
        now, list({job.webhook_id for job, _ in successes}), now - _SUCCESS_STAMP_INTERVAL,
    ]


async def claim_batch(*, webhook_id: uuid.UUID, limit: int) -> list[DeliveryJob]:
    """Lease up to ``limit`` pending deliveries of an active webhook and write their attempts.

    Only ``pending`` ones (first attempts, replays): a retry stays with the delayed message
    its failure scheduled (delivery.py), so the retry schedule is exactly that path's.
    One statement: atomic on its own, or part of the caller's unit of work. A webhook that is
    disabled or deleted gets nothing claimed (disabling already failed its open deliveries).
    """
    now = clock.now()
    rows = await connections.get("default").execute_query_dict(
        _CLAIM, [webhook_id, now, limit, _lease(now), NO_OUTCOME, []])
    return _jobs(webhook_id, rows, now=now)


async def record_successes_then_claim(results: list[tuple[DeliveryJob, AttemptOutcome]], *,
                                      webhook_id: uuid.UUID, limit: int) -> list[DeliveryJob]:
    """Record a batch whose attempts all succeeded and claim the next one, in one statement
    (:func:`record_batch` then :func:`claim_batch`, one round trip instead of two)."""
    assert results and all(outcome.succeeded for _, outcome in results)
    now = clock.now()
    rows = await connections.get("default").execute_query_dict(_RECORD_SUCCESSES_THEN_CLAIM, [
        *_success_columns(results, now), webhook_id, limit, _lease(now), NO_OUTCOME])
    return _jobs(webhook_id, rows, now=now)


#: Deliveries claimed ahead but not sent, given back: the attempt the claim counted (and its
#: history row, still without an outcome) is taken back and the lease dropped.
_RELEASE_UNSENT = """
WITH u AS (
    SELECT * FROM unnest($1::uuid[], $2::int[]) AS u(delivery_id, attempt_number)
), forgotten AS (
    DELETE FROM webhook_attempts AS a USING u
    WHERE a.delivery_id = u.delivery_id AND a.attempt_number = u.attempt_number AND a.error = $3
)
UPDATE webhook_deliveries AS d
SET attempt_count = d.attempt_count - 1, lease_expires_at = NULL, updated_at = $4
FROM u
WHERE d.id = u.delivery_id AND d.attempt_count = u.attempt_number AND d.status = 'pending'
"""

async def release_unsent(jobs: list[DeliveryJob], *, webhook_id: uuid.UUID) -> None:
    """Give back deliveries claimed ahead that were not sent (in the caller's unit of work).

    If the webhook is no longer active (a failure just disabled it), they fail as its other
    open deliveries did, rather than stay pending behind a disabled webhook.
    """
    if not jobs:
        return
    now = clock.now()
    await connections.get("default").execute_query(
        _RELEASE_UNSENT, [[job.delivery_id for job in jobs], [job.attempt for job in jobs], NO_OUTCOME, now])
    webhook = await Webhook.get_or_none(id=webhook_id)
    if webhook is not None and (webhook.deleted_at is not None or webhook.status != STATUS_ACTIVE):
        await fail_open_deliveries(
            webhook_id, now=now, error=ERROR_WEBHOOK_DELETED if webhook.deleted_at is not None else ERROR_WEBHOOK_DISABLED)


async def record_batch(results: list[tuple[DeliveryJob, AttemptOutcome]]) -> list[Enqueue]:
    """Store the outcomes of a batch; returns the retries to enqueue.

    Successes are one statement (atomic on its own). Failures go through
    :func:`domain.webhooks.delivery.record_attempt`: call it in a unit of work when any failed.
    """
    if not results:
        return []
    now = clock.now()
    successes = [(job, outcome) for job, outcome in results if outcome.succeeded]
    retries: list[Enqueue] = []
    if successes:
        await connections.get("default").execute_query(_RECORD_SUCCESSES, _success_columns(successes, now))
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
            finished = await _stream(webhook_id=webhook_id, send=send, slots=slots, holders=holders,
                                     deadline=deadline, result=result)
        finally:
            await slots.release_many(webhook_id, holders)
        if not finished:
            result.unfinished = True
            return result
        # A retry that parked while this drain held every slot may have lost its Redis mark to
        # the clear in _stream, and claims take only pending deliveries: the database says who
        # waits. Retries parked by the one-attempt path get the freed slots through their own messages.
        woken = await hand_off(webhook_id=webhook_id, free_slots=limit)
        result.to_enqueue.extend(Enqueue(due) for due in woken)
        if not await slots.is_parked(webhook_id):
            return result


async def _stream(*, webhook_id: uuid.UUID, send: Send, slots: DrainSlots, holders: list[str], deadline: float,
                  result: DrainResult) -> bool:
    """Send the webhook's pending deliveries through the held slots until none is due.

    One request per held slot is in flight at any moment; up to as many more are claimed
    ahead, so that a finishing request is followed at once by the next. Each time requests
    finish, one statement records their successes and claims what the freed room allows
    (:func:`record_successes_then_claim`). A failure is recorded through
    :func:`record_batch` (the one-attempt path's rules), and the deliveries claimed ahead are
    given back unsent (:func:`release_unsent`), so that nothing is sent past a failure that
    may have disabled the webhook. Returns False when the time ran out first.
    """
    width = len(holders)
    ahead: deque[DeliveryJob] = deque()
    done: list[tuple[DeliveryJob, AttemptOutcome]] = []
    tasks: set[asyncio.Task[None]] = set()
    running = 0  # requests in flight (a task may stay in ``tasks`` a moment after it ended)
    finished_one = asyncio.Event()
    refresh_at = time.monotonic() + _SLOT_REFRESH_SECONDS
    cleared = False

    async def attempt(job: DeliveryJob) -> None:
        nonlocal running
        try:
            outcome = await send(job)
            done.append((job, outcome))  # ``done`` is looked up now: the loop swaps in a new list
        finally:
            running -= 1
            finished_one.set()

    try:
        while True:
            # Nothing new leaves while a failure waits to be recorded (it may disable the webhook).
            while ahead and running < width and all(outcome.succeeded for _, outcome in done):
                running += 1
                task = asyncio.create_task(attempt(ahead.popleft()))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
            if not done and not running:
                # Idle: claim afresh (the first round, after a failure, or once the backlog ran out).
                if time.monotonic() > deadline:
                    return False
                jobs = await claim_batch(webhook_id=webhook_id, limit=_AHEAD * width)
                if not jobs:
                    if cleared:
                        return True
                    # Anything committed before this clear is seen by the claim that follows;
                    # anything refused a slot after it leaves the mark we check once released.
                    await slots.clear_parked(webhook_id)
                    cleared = True
                    continue
                cleared = False
                ahead.extend(jobs)
                continue
            if not done or (running and len(ahead) >= width and len(done) < _AHEAD * width
                            and all(outcome.succeeded for _, outcome in done)):
                # Enough is claimed ahead to keep every slot busy: let successes accumulate, so
                # that one statement records several (a failure is recorded at once).
                finished_one.clear()
                await finished_one.wait()
                continue
            batch, done = done, []
            result.sent += len(batch)
            result.succeeded += sum(1 for _, outcome in batch if outcome.succeeded)
            room = _AHEAD * width - len(ahead) - running
            if not all(outcome.succeeded for _, outcome in batch):
                unsent, ahead = list(ahead), deque()
                async with unit_of_work():
                    result.to_enqueue.extend(await record_batch(batch))
                    await release_unsent(unsent, webhook_id=webhook_id)
            elif room <= 0 or time.monotonic() > deadline:
                await record_batch(batch)
            else:
                # The usual step: one statement records what finished and claims the next ones.
                ahead.extend(await record_successes_then_claim(batch, webhook_id=webhook_id, limit=room))
                cleared = False
            if time.monotonic() > refresh_at:
                # Taking a slot again refreshes its expiry (a long drain keeps what it holds).
                await slots.take_many(webhook_id, holders)
                refresh_at = time.monotonic() + _SLOT_REFRESH_SECONDS
    finally:
        if tasks:
            # Only on an error: let the requests end (their outcomes are lost, their leases run
            # out and a later claim makes the next attempt: at least once).
            await asyncio.gather(*tasks, return_exceptions=True)
