"""Delivering events: one signed HTTP attempt at a time, retries, disable counting, the sweep.

:func:`deliver` is the whole job behind the ``webhooks.deliver`` actor, testable on its own:
claim the attempt (:func:`claim_delivery`: due? next? a slot of the webhook's concurrency
limit?), send it (a :data:`Send` callable: :func:`domain.webhooks.sender.post` in production),
record the outcome (:func:`record_attempt`: succeeded, retrying or failed; 50 consecutive
failures disable the webhook) and hand the freed slot to a parked delivery. It returns what the
caller must enqueue; the actor enqueues it.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Awaitable, Callable, Protocol

from tortoise import connections
from tortoise.expressions import F, Q

from core import clock
from core.sealing import unseal
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain import audit
from domain.webhooks import schedule
from domain.webhooks.catalogue import (
    DUE_TOLERANCE,
    ERROR_WEBHOOK_DELETED,
    ERROR_WEBHOOK_DISABLED,
    FAILED,
    LEASE_MARGIN,
    NO_OUTCOME,
    OPEN_STATUSES,
    PENDING,
    RESPONSE_BODY_LIMIT,
    RETRYING,
    STATUS_ACTIVE,
    STATUS_DISABLED,
    SUCCEEDED,
    SWEEP_BATCH,
    SWEEP_GRACE,
)
from domain.webhooks.events import DueDelivery
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery

logger = logging.getLogger(__name__)

def secrets_in_force(*, sealed: bytes, previous_sealed: bytes | None, previous_expires_at: datetime | None,
                     now: datetime, unsealed: Callable[[bytes], str] = lambda s: unseal(s).decode()) -> list[str]:
    """The secrets that sign an attempt now: the current one, plus the previous one in its grace
    after a rotation. ``unsealed`` opens a sealed secret (the drain's caches them per process)."""
    secrets = [unsealed(bytes(sealed))]
    if previous_sealed is not None and previous_expires_at is not None and previous_expires_at > now:
        secrets.append(unsealed(bytes(previous_sealed)))
    return secrets


def signing_secrets(webhook: Webhook, *, now: datetime) -> list[str]:
    """:func:`secrets_in_force` of a webhook row."""
    return secrets_in_force(sealed=bytes(webhook.secret_sealed), previous_sealed=webhook.previous_secret_sealed,
                            previous_expires_at=webhook.previous_secret_expires_at, now=now)


@dataclass(frozen=True)
class DeliveryJob:
    """Everything one attempt needs, read while the delivery was claimed."""

    delivery_id: uuid.UUID
    webhook_id: uuid.UUID
    event_id: uuid.UUID
    url: str
    body: bytes
    attempt: int
    secrets: list[str] = field(repr=False)


@dataclass(frozen=True)
class Claim:
    """What :func:`claim_delivery` decided.

    ``send``: the attempt is leased, send ``job``. ``not_due``: come back at ``due_at``.
    ``parked``: the webhook is at its concurrency limit; a finishing attempt hands the slot on.
    ``skip``: nothing to do (final, superseded, in flight elsewhere, webhook disabled).
    """

    kind: str
    job: DeliveryJob | None = None
    due_at: datetime | None = None
    webhook_id: uuid.UUID | None = None
    reason: str = ""


#: ``take_slot(webhook_id, delivery_id) -> bool``: a slot of the webhook's concurrency limit.
SlotTaker = Callable[[uuid.UUID, uuid.UUID], Awaitable[bool]]


async def _lock_delivery(delivery_id: uuid.UUID) -> WebhookDelivery | None:
    """The delivery, row-locked, with its webhook and event loaded (not locked) in one query."""
    return await WebhookDelivery.filter(id=delivery_id).select_related("webhook", "event").select_for_update(
        no_key=True, of=("webhook_deliveries",)).first()


async def claim_delivery(*, delivery_id: uuid.UUID, attempt: int | None, take_slot: SlotTaker) -> Claim:
    """Decide whether attempt ``attempt`` of the delivery may start now; if so, lease it.

    Idempotent against the broker's at-least-once delivery: a message for an attempt that was
    already made (``attempt`` no longer next), for a final delivery, or for one in flight is
    skipped; a message that arrives before the attempt is due is answered ``not_due``. Only the
    delivery row is locked, so attempts to one webhook are claimed in parallel; ``take_slot``
    bounds how many are in flight at once.
    """
    settings = get_settings()
    now = clock.now()
    delivery = await _lock_delivery(delivery_id)
    if delivery is None:
        return Claim("skip", reason="unknown delivery")
    webhook: Webhook = delivery.webhook
    if delivery.status not in OPEN_STATUSES:
        return Claim("skip", reason=f"delivery {delivery.status}")
    if attempt is not None and attempt != delivery.attempt_count + 1:
        return Claim("skip", reason="superseded message")
    if delivery.lease_expires_at is not None and delivery.lease_expires_at > now:
        return Claim("skip", reason="attempt in flight")
    if webhook.deleted_at is not None or webhook.status != STATUS_ACTIVE:
        error = ERROR_WEBHOOK_DELETED if webhook.deleted_at is not None else ERROR_WEBHOOK_DISABLED
        _finish(delivery, status=FAILED, now=now, error=error)
        await delivery.save()
        return Claim("skip", reason=error)
    if delivery.next_attempt_at is not None and delivery.next_attempt_at > now + DUE_TOLERANCE:
        return Claim("not_due", due_at=delivery.next_attempt_at)
    if not await take_slot(webhook.id, delivery.id):
        if delivery.parked_at is None:
            delivery.parked_at = now
            await delivery.save(update_fields=["parked_at"])
        return Claim("parked", webhook_id=webhook.id, reason="webhook at its concurrency limit")
    delivery.lease_expires_at = now + timedelta(seconds=settings.webhook_timeout_seconds) + LEASE_MARGIN
    delivery.parked_at = None
    if delivery.window_started_at is None:
        delivery.window_started_at = now
    # The attempt is counted and written now, before the request leaves: a worker that dies
    # after sending leaves it in the history (NO_OUTCOME), and the next claim makes the next one.
    delivery.attempt_count += 1
    await delivery.save(update_fields=["attempt_count", "lease_expires_at", "parked_at", "window_started_at"])
    await WebhookAttempt.create(delivery_id=delivery.id, attempt_number=delivery.attempt_count, started_at=now,
                                duration_ms=0, error=NO_OUTCOME, succeeded=False)
    return Claim("send", webhook_id=webhook.id, job=DeliveryJob(
        delivery_id=delivery.id, webhook_id=webhook.id, event_id=delivery.event.id, url=webhook.url,
        body=delivery.event.payload.encode(), attempt=delivery.attempt_count,
        secrets=signing_secrets(webhook, now=now),
    ))


@dataclass(frozen=True)
class AttemptOutcome:
    """What happened to one HTTP attempt (filled by the sender)."""

    started_at: datetime
    duration_ms: int
    response_status: int | None = None
    response_body: str | None = None
    error: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.response_status is not None and 200 <= self.response_status < 300 and self.error is None


@dataclass(frozen=True)
class Recorded:
    """Result of :func:`record_attempt`: the delivery's new status and the retry to schedule."""

    status: str
    retry_at: datetime | None = None
    retry_attempt: int | None = None
    webhook_disabled: bool = False


def _finish(delivery: WebhookDelivery, *, status: str, now: datetime, error: str | None = None) -> None:
    delivery.status = status
    delivery.finished_at = now
    delivery.next_attempt_at = None
    delivery.lease_expires_at = None
    delivery.parked_at = None
    if error is not None:
        delivery.last_error = error


#: A success refreshes ``last_success_at`` at most this often when nothing else changes, so that
#: a busy webhook's row is not rewritten by every delivery.
_SUCCESS_STAMP_INTERVAL = timedelta(seconds=1)


async def record_attempt(*, job: DeliveryJob, outcome: AttemptOutcome) -> Recorded:
    """Record one attempt and move the delivery on (succeeded, retrying, failed).

    The attempt's row was written by the claim (:data:`NO_OUTCOME`); this fills in its outcome.
    Counting rule: every failed attempt adds one to the webhook's consecutive failures (the
    attempt that exhausts the 24 hour window included); a success resets the count. At 50 the
    webhook is disabled and its other open deliveries fail with "webhook disabled". The webhook
    row is written last, so its lock is held only until the commit that follows.
    """
    now = clock.now()
    delivery = await _lock_delivery(job.delivery_id)
    if delivery is None:
        return Recorded(status="unknown")
    webhook: Webhook = delivery.webhook
    number = job.attempt
    await WebhookAttempt.filter(delivery_id=delivery.id, attempt_number=number).update(
        started_at=outcome.started_at, duration_ms=outcome.duration_ms, response_status=outcome.response_status,
        response_body=outcome.response_body, error=outcome.error, succeeded=outcome.succeeded)
    if delivery.attempt_count != number or delivery.status not in OPEN_STATUSES:
        # The delivery moved on while this attempt was out (its lease ran out): history only.
        return Recorded(status=delivery.status)
    delivery.last_attempt_at = outcome.started_at
    delivery.last_response_status = outcome.response_status
    delivery.last_response_body = outcome.response_body  # type: ignore[assignment]  # nullable TextField
    delivery.last_error = outcome.error  # type: ignore[assignment]  # nullable TextField
    delivery.lease_expires_at = None
    if outcome.succeeded:
        _finish(delivery, status=SUCCEEDED, now=now)
        await delivery.save()
        if (webhook.consecutive_failures or webhook.last_success_at is None
                or webhook.last_success_at < now - _SUCCESS_STAMP_INTERVAL):
            await Webhook.filter(id=webhook.id).update(consecutive_failures=0, last_success_at=now)
        return Recorded(status=SUCCEEDED)

    # A failure: count it (atomically; concurrent attempts of this webhook record in parallel).
    await Webhook.filter(id=webhook.id).update(consecutive_failures=F("consecutive_failures") + 1,
                                               last_failure_at=now)
    webhook = await Webhook.get(id=webhook.id)  # row-locked by the update until commit
    disabled_now = False
    if (webhook.status == STATUS_ACTIVE and webhook.deleted_at is None
            and webhook.consecutive_failures >= schedule.DISABLE_AFTER_CONSECUTIVE_FAILURES):
        await disable(webhook, now=now, actor_id=None,
                       reason=f"{webhook.consecutive_failures} consecutive failed deliveries",
                       except_delivery=delivery.id)
        disabled_now = True
    if webhook.deleted_at is not None or webhook.status != STATUS_ACTIVE:
        _finish(delivery, status=FAILED, now=now)
        reason = ERROR_WEBHOOK_DELETED if webhook.deleted_at is not None else ERROR_WEBHOOK_DISABLED
        delivery.last_error = f"{outcome.error}; {reason}"
    else:
        window_start = delivery.window_started_at or outcome.started_at
        retry_at = schedule.next_attempt_at(attempt=number, failed_at=now, window_started_at=window_start)
        if retry_at is None:
            _finish(delivery, status=FAILED, now=now)
        else:
            delivery.status = RETRYING
            delivery.next_attempt_at = retry_at
            # The delayed message is "enqueued" for its due time; the sweep measures from there.
            delivery.enqueued_at = retry_at
    await delivery.save()
    retry = delivery.status == RETRYING
    return Recorded(status=delivery.status, retry_at=delivery.next_attempt_at if retry else None,
                    retry_attempt=number + 1 if retry else None, webhook_disabled=disabled_now)


async def hand_off(*, webhook_id: uuid.UUID, free_slots: int) -> list[DueDelivery]:
    """Wake up to ``free_slots`` of the webhook's longest-parked deliveries (the caller enqueues).

    Called after an attempt frees a slot, and by a delivery that just parked (in case the slot
    it waited for was freed meanwhile): between the two, no parked delivery is left waiting for a
    slot that is already free. Concurrent callers pick different deliveries (SKIP LOCKED).
    """
    if free_slots <= 0:
        return []
    rows = await connections.get("default").execute_query_dict(
        _HAND_OFF, [webhook_id, free_slots, clock.now(), list(OPEN_STATUSES)])
    return [DueDelivery(row["id"], row["attempt_count"] + 1) for row in rows]


#: :func:`hand_off` in one statement (one round trip, no transaction of its own needed).
_HAND_OFF = """
UPDATE webhook_deliveries SET parked_at = NULL, enqueued_at = $3
WHERE id IN (
    SELECT id FROM webhook_deliveries
    WHERE webhook_id = $1 AND parked_at IS NOT NULL AND status = ANY($4::text[])
    ORDER BY parked_at, id
    LIMIT $2
    FOR UPDATE SKIP LOCKED
)
RETURNING id, attempt_count
"""


async def fail_open_deliveries(webhook_id: uuid.UUID, *, error: str, now: datetime,
                                except_delivery: uuid.UUID | None = None) -> int:
    """Fail every open delivery of the webhook that has no attempt in flight."""
    query = WebhookDelivery.filter(webhook_id=webhook_id, status__in=list(OPEN_STATUSES)).filter(
        Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lte=now))
    if except_delivery is not None:
        query = query.exclude(id=except_delivery)
    return await query.update(status=FAILED, last_error=error, finished_at=now, next_attempt_at=None,
                              lease_expires_at=None, parked_at=None, updated_at=now)


async def disable(webhook: Webhook, *, reason: str, now: datetime, actor_id: uuid.UUID | None,
                   except_delivery: uuid.UUID | None = None) -> None:
    """Disable the (locked) webhook: nothing more is sent; open deliveries fail."""
    webhook.status = STATUS_DISABLED
    webhook.disabled_at = now
    webhook.disabled_reason = reason
    await webhook.save()
    failed = await fail_open_deliveries(webhook.id, error=ERROR_WEBHOOK_DISABLED, now=now,
                                         except_delivery=except_delivery)
    await audit.record(action="webhook.disabled", object_type="webhook", object_id=webhook.id, actor_id=actor_id,
                       workspace_id=webhook.workspace_id,
                       details={"reason": reason, "open_deliveries_failed": failed,
                                "consecutive_failures": webhook.consecutive_failures})


#: The overdue deliveries of :func:`overdue_deliveries`, with their webhook's state (and, for a
#: parked one, whether the webhook has an attempt in flight), the longest due first: locked (only
#: the deliveries: ``OF d``) and passed over when another sweep holds them (``SKIP LOCKED``).
#: Written out because tortoise's ``values_list`` drops ``select_for_update``: two sweeps at once
#: took the same rows, and the second then waited on the first's update.
_OVERDUE = """
SELECT d.id, d.attempt_count, d.parked_at, d.webhook_id, d.status, w.status AS webhook_status, w.deleted_at,
       d.parked_at IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_deliveries AS b
                                           WHERE b.webhook_id = d.webhook_id AND b.lease_expires_at > $3)
           AS webhook_busy
FROM webhook_deliveries AS d JOIN webhooks AS w ON w.id = d.webhook_id
WHERE d.status = ANY($1::text[]) AND d.next_attempt_at <= $2
  AND (d.enqueued_at IS NULL OR d.enqueued_at <= $2)
  AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $3)
ORDER BY d.next_attempt_at
LIMIT $4
FOR UPDATE OF d SKIP LOCKED
"""


@dataclass(frozen=True)
class OverdueDelivery(DueDelivery):
    """An open delivery whose message seems lost (:func:`overdue_deliveries`), with its webhook
    and whether it is ``drainable``: pending (a first attempt or a replay) and of an active
    webhook, so that any drain of the webhook sends it. The others take their own message: a
    retry (its schedule is that path's), and a delivery of a webhook deleted or disabled while
    its attempt was in flight (that message's claim fails it; a drain would claim nothing)."""

    webhook_id: uuid.UUID
    drainable: bool


async def overdue_deliveries(*, grace: timedelta = SWEEP_GRACE, limit: int = SWEEP_BATCH) -> list[OverdueDelivery]:
    """Deliveries whose message seems lost; marks them enqueued now (the caller enqueues).

    Overdue: open, due for longer than ``grace``, no message sent for it within ``grace``, no
    attempt in flight. A parked delivery is overdue only when its webhook has no attempt in
    flight (otherwise a finishing attempt will hand it a slot). At most ``limit``, the longest
    due first.
    """
    now = clock.now()
    rows = await connections.get("default").execute_query_dict(
        _OVERDUE, [list(OPEN_STATUSES), now - grace, now, limit])
    due: list[OverdueDelivery] = []
    for row in rows:
        if row["webhook_busy"]:
            continue  # parked, and its webhook has an attempt in flight
        drainable = row["status"] == PENDING and row["webhook_status"] == STATUS_ACTIVE and row["deleted_at"] is None
        due.append(OverdueDelivery(row["id"], row["attempt_count"] + 1, row["webhook_id"], drainable))
    if due:
        await WebhookDelivery.filter(id__in=[d.delivery_id for d in due]).update(enqueued_at=now)
    return due


def truncate_body(raw: bytes) -> str:
    """The stored form of a response body: its first 4 KB, decoded leniently."""
    return raw[:RESPONSE_BODY_LIMIT].decode("utf-8", errors="replace")


# --- one attempt, start to end -------------------------------------------------------------------

#: Sends one attempt; every failure becomes an outcome, never an exception.
Send = Callable[[DeliveryJob], Awaitable[AttemptOutcome]]


class Slots(Protocol):
    """The per-webhook concurrency limit (:class:`core.slots.ConcurrencySlots` in production)."""

    async def take(self, key: object, holder: object) -> bool: ...
    async def release(self, key: object, holder: object) -> None: ...
    async def wakeable(self, key: object) -> int: ...
    async def mark_parked(self, key: object) -> None: ...


@dataclass(frozen=True)
class Enqueue:
    """A ``webhooks.deliver`` message the caller must send: ``delay_ms`` from now (None: at once)."""

    due: DueDelivery
    delay_ms: int | None = None


@dataclass
class DeliveryResult:
    """What :func:`deliver` did, and the messages the caller must send after it."""

    outcome: str
    to_enqueue: list[Enqueue] = field(default_factory=list)
    recorded: Recorded | None = None


def _ms_until(moment: datetime) -> int:
    return max(int((moment - clock.now()).total_seconds() * 1000), 0)


async def wake_parked(*, webhook_id: uuid.UUID, slots: Slots) -> list[Enqueue]:
    """Hand free slots of the webhook to its longest-parked deliveries."""
    free = await slots.wakeable(webhook_id)
    if free <= 0:
        return []
    async with unit_of_work():
        woken = await hand_off(webhook_id=webhook_id, free_slots=free)
    if woken:
        await slots.mark_parked(webhook_id)  # more may wait behind them
    return [Enqueue(due) for due in woken]


async def deliver(*, delivery_id: uuid.UUID, attempt: int | None, send: Send, slots: Slots) -> DeliveryResult:
    """Make attempt ``attempt`` of a delivery if it is still the next one and due (idempotent).

    Three short steps, none holding a transaction across the network: claim (lease) the attempt,
    send it, record the outcome. The slot taken in the claim is released whatever happens.
    """
    taken: list[tuple[uuid.UUID, uuid.UUID]] = []

    async def take_slot(webhook_id: uuid.UUID, claimed: uuid.UUID) -> bool:
        if await slots.take(webhook_id, claimed):
            taken.append((webhook_id, claimed))
            return True
        return False

    try:
        async with unit_of_work():
            claim = await claim_delivery(delivery_id=delivery_id, attempt=attempt, take_slot=take_slot)
    except Exception:
        for webhook_id, claimed in taken:  # the claim did not commit: give the slot back now
            await slots.release(webhook_id, claimed)
        raise
    if claim.kind == "not_due" and attempt is not None:
        # Early (a clock ahead of the sender's): come back when due rather than send early.
        assert claim.due_at is not None
        return DeliveryResult("not_due", [Enqueue(DueDelivery(delivery_id, attempt), _ms_until(claim.due_at))])
    if claim.kind == "parked":
        # The slot this delivery waited for may have been freed while it parked.
        assert claim.webhook_id is not None
        return DeliveryResult("parked", await wake_parked(webhook_id=claim.webhook_id, slots=slots))
    if claim.kind != "send":
        logger.debug("webhooks: delivery %s: %s %s", delivery_id, claim.kind, claim.reason)
        return DeliveryResult(claim.kind)
    job = claim.job
    assert job is not None
    try:
        outcome = await send(job)
        async with unit_of_work():
            recorded = await record_attempt(job=job, outcome=outcome)
    finally:
        await slots.release(job.webhook_id, job.delivery_id)
    result = DeliveryResult("sent", recorded=recorded)
    if recorded.retry_at is not None and recorded.retry_attempt is not None:
        result.to_enqueue.append(Enqueue(DueDelivery(job.delivery_id, recorded.retry_attempt),
                                         _ms_until(recorded.retry_at)))
    if recorded.webhook_disabled:
        logger.warning("webhooks: webhook %s disabled after %d consecutive failed deliveries", job.webhook_id,
                       schedule.DISABLE_AFTER_CONSECUTIVE_FAILURES)
    else:
        result.to_enqueue.extend(await wake_parked(webhook_id=job.webhook_id, slots=slots))
    return result
