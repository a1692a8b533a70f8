"""Publishing events: the event outbox and the fan-out to subscribed webhooks.

:func:`emit_event` is what the rest of the service calls to publish an event. It writes the
event row and an outbox command in the caller's transaction; the command's actor
(:func:`fan_out_event`) creates one delivery per subscribed webhook.
"""

from __future__ import annotations

import decimal
import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping

from tortoise import connections
from tortoise.expressions import Q

from core import clock
from core.clock import rfc3339
from core.outbox import new_command
from core.rows import build
from domain.webhooks.catalogue import (
    ERROR_WEBHOOK_DISABLED,
    EVENT_TYPES,
    FAILED,
    FAN_OUT,
    OPEN_STATUSES,
    PENDING,
    RETRYING,
    STATUS_ACTIVE,
    is_subscribed,
)
from models.webhooks import Webhook, WebhookDelivery, WebhookEvent


def _json_default(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, datetime):
        return rfc3339(value)
    if isinstance(value, decimal.Decimal):
        # Amounts are integers in atomic units: strings on the wire, never floats.
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable in a webhook payload")


def render_envelope(*, event_id: uuid.UUID, event_type: str, created_at: datetime, workspace_id: uuid.UUID,
                    data: Mapping[str, Any]) -> str:
    """The request body of an event: ``{type, id, created_at, workspace_id, data}`` (compact JSON)."""
    return json.dumps(
        {"type": event_type, "id": str(event_id), "created_at": rfc3339(created_at),
         "workspace_id": str(workspace_id), "data": dict(data)},
        separators=(",", ":"), ensure_ascii=False, default=_json_default,
    )


async def emit_event(
    *, workspace_id: uuid.UUID, event_type: str, data: Mapping[str, Any],
    target_webhook_id: uuid.UUID | None = None,
) -> WebhookEvent:
    """Publish an event of the workspace to its subscribed webhooks.

    Call it inside the unit of work that makes the change the event reports: the event row and
    the fan-out command commit (or roll back) with it, and the fan-out starts after the commit.
    ``data`` must be JSON-serializable (UUIDs, datetimes and Decimals are converted; amounts
    belong in strings). ``event_type`` must be in :data:`EVENT_TYPES`.

    >>> async with unit_of_work():
    ...     tx = await transactions.update_status(...)
    ...     await events.emit_event(workspace_id=tx.workspace_id, event_type="transaction.updated",
    ...                               data=serialize(tx))
    """
    event = new_event(workspace_id=workspace_id, event_type=event_type, data=data,
                      target_webhook_id=target_webhook_id)
    await event.save()
    return event


def new_event(
    *, workspace_id: uuid.UUID, event_type: str, data: Mapping[str, Any],
    target_webhook_id: uuid.UUID | None = None,
) -> WebhookEvent:
    """:func:`emit_event` without its INSERTs: the caller writes the event row in the same
    transaction, with the change it reports (core.rows.write_rows); its fan-out command is
    written with it or, at the latest, just before the commit (core.outbox.new_command)."""
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown webhook event type {event_type!r}; add it to domain.webhooks.catalogue.EVENT_TYPES")
    now = clock.now()
    event_id = uuid.uuid4()
    payload = render_envelope(event_id=event_id, event_type=event_type, created_at=now,
                              workspace_id=workspace_id, data=data)
    event = build(WebhookEvent, id=event_id, workspace_id=workspace_id, type=event_type, payload=payload,
                  target_webhook_id=target_webhook_id, created_at=now)
    # Coalesced: a burst of events wakes one fan-out run, which takes them all in batches.
    new_command(actor_name=FAN_OUT, payload={"event_id": str(event.id)}, workspace_id=workspace_id, coalesce=True)
    return event


def _new_delivery(event: WebhookEvent, webhook: Webhook, *, now: datetime) -> WebhookDelivery:
    """The (unsaved) delivery of ``event`` to ``webhook``.

    ``pending`` for an active webhook; ``failed`` ("webhook disabled") for a disabled one:
    recorded, never sent automatically (replay after reactivation).
    """
    if webhook.status == STATUS_ACTIVE:
        return WebhookDelivery(workspace_id=event.workspace_id, webhook=webhook, event=event,
                               event_type=event.type, status=PENDING, next_attempt_at=now,
                               enqueued_at=now, created_at=now, updated_at=now)
    return WebhookDelivery(workspace_id=event.workspace_id, webhook=webhook, event=event,
                           event_type=event.type, status=FAILED, last_error=ERROR_WEBHOOK_DISABLED,
                           finished_at=now, created_at=now, updated_at=now)


async def create_delivery(event: WebhookEvent, webhook: Webhook, *, now: datetime) -> WebhookDelivery:
    """Create the delivery of ``event`` to ``webhook`` (the caller knows there is none yet)."""
    delivery = _new_delivery(event, webhook, now=now)
    await delivery.save()
    return delivery


@dataclass(frozen=True)
class DueDelivery:
    """A delivery to enqueue now, with the attempt number its message must carry."""

    delivery_id: uuid.UUID
    attempt: int


async def fan_out_event(*, event_id: uuid.UUID) -> list[DueDelivery]:
    """Create the deliveries of an event (runs once, in the fan-out command's transaction).

    One delivery per subscribed webhook of the event's workspace: ``pending`` for an active
    webhook, ``failed`` (error "webhook disabled") for a disabled one. Returns the deliveries to
    enqueue after commit.
    """
    event = await WebhookEvent.get_or_none(id=event_id)
    if event is None:
        return []
    now = clock.now()
    if event.target_webhook_id is not None:
        webhooks = await Webhook.filter(id=event.target_webhook_id, deleted_at__isnull=True)
    else:
        candidates = await Webhook.filter(workspace_id=event.workspace_id, deleted_at__isnull=True)
        webhooks = [w for w in candidates if is_subscribed(w.event_types, event.type)]
    existing = {d.webhook_id: d for d in await WebhookDelivery.filter(event_id=event.id)}
    due = []
    for webhook in webhooks:
        # One delivery per (event, webhook): a fan-out that runs again finds the ones it made.
        delivery = existing.get(webhook.id) or await create_delivery(event, webhook, now=now)
        if delivery.status == PENDING:
            due.append(DueDelivery(delivery.id, delivery.attempt_count + 1))
    return due


#: The whole fan-out of a batch in one statement (one round trip, atomic on its own): up to $3
#: pending fan-out commands locked (SKIP LOCKED: concurrent runs take different ones) and marked
#: done, one delivery per (event, subscribed webhook) created (``pending`` for an active webhook,
#: ``failed`` "webhook disabled" for a disabled one; one already there is kept, so each event is
#: fanned out once), and the webhooks with something to send returned: those that got a pending
#: delivery, and those whose delivery of these events was made beforehand and is still pending.
#: Subscription as in :func:`domain.webhooks.catalogue.is_subscribed`: the exact type or its family.
_FAN_OUT = """
WITH cmds AS (
    SELECT id, (payload->>'event_id')::uuid AS event_id FROM outbox_commands
    WHERE actor_name = $1 AND status = 'pending' AND run_at <= $2
    ORDER BY created_at
    LIMIT $3
    FOR UPDATE SKIP LOCKED
), finished AS (
    UPDATE outbox_commands AS c SET status = 'done', started_at = $2, finished_at = $2, attempts = c.attempts + 1
    FROM cmds WHERE c.id = cmds.id
    RETURNING c.id
), pairs AS (
    SELECT e.id AS event_id, e.workspace_id, e.type, w.id AS webhook_id, w.status = $4 AS active
    FROM cmds
    JOIN webhook_events AS e ON e.id = cmds.event_id
    JOIN webhooks AS w ON w.deleted_at IS NULL AND (
        w.id = e.target_webhook_id
        OR (e.target_webhook_id IS NULL AND w.workspace_id = e.workspace_id
            AND (w.event_types ? e.type OR w.event_types ? (split_part(e.type, '.', 1) || '.*'))))
), made AS (
    INSERT INTO webhook_deliveries (
        id, created_at, updated_at, workspace_id, webhook_id, event_id, event_type, status, attempt_count,
        next_attempt_at, enqueued_at, finished_at, last_error, replay_count)
    SELECT gen_random_uuid(), $2, $2, workspace_id, webhook_id, event_id, type,
           CASE WHEN active THEN $5 ELSE $6 END, 0,
           CASE WHEN active THEN $2::timestamptz END, CASE WHEN active THEN $2::timestamptz END,
           CASE WHEN active THEN NULL ELSE $2::timestamptz END, CASE WHEN active THEN NULL ELSE $7 END, 0
    FROM pairs
    ON CONFLICT (event_id, webhook_id) DO NOTHING
    RETURNING webhook_id, status
), earlier AS (
    SELECT d.webhook_id FROM webhook_deliveries AS d JOIN cmds ON d.event_id = cmds.event_id WHERE d.status = $5
)
SELECT (SELECT count(*) FROM finished) AS commands,
       ARRAY(SELECT webhook_id FROM made WHERE status = $5 UNION SELECT webhook_id FROM earlier) AS webhook_ids
"""


@dataclass(frozen=True)
class FanOutBatch:
    """What :func:`fan_out_pending` did: the webhooks that got due deliveries, and whether the
    batch was full (more commands may be waiting for another run)."""

    commands: int
    webhook_ids: list[uuid.UUID]
    full: bool


async def fan_out_pending(*, limit: int) -> FanOutBatch:
    """Run up to ``limit`` pending fan-out commands at once: one statement (:data:`_FAN_OUT`).

    The commands are locked with ``SKIP LOCKED`` (concurrent runs take different ones), their
    deliveries created and the commands marked done in the same statement, so each event is
    fanned out exactly once, as :func:`fan_out_event` does for one.
    """
    [row] = await connections.get("default").execute_query_dict(
        _FAN_OUT, [FAN_OUT, clock.now(), limit, STATUS_ACTIVE, PENDING, FAILED, ERROR_WEBHOOK_DISABLED])
    commands = int(row["commands"])
    return FanOutBatch(commands, sorted(row["webhook_ids"] or []), commands >= limit)


async def due_deliveries_of(*, webhook_id: uuid.UUID, pending: bool = True) -> list[DueDelivery]:
    """Every delivery of a webhook that is due now and not in flight (what a replay queued);
    ``pending=False``: the retrying ones only (a drain sends the pending ones)."""
    now = clock.now()
    rows = await WebhookDelivery.filter(
        webhook_id=webhook_id, status__in=list(OPEN_STATUSES) if pending else [RETRYING],
        next_attempt_at__lte=now,
    ).filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lte=now)).order_by("next_attempt_at", "id").values_list(
        "id", "attempt_count")
    return [DueDelivery(row[0], row[1] + 1) for row in rows]
