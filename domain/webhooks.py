"""Webhooks: management, the event outbox, and the delivery state machine.

Three parts, all in the caller's transaction (services never commit):

1. **Management** (API): create, list, get, update (``status: active`` reactivates), delete,
   rotate the secret, send a test event, delivery history, replay. Every query is scoped by
   workspace; another workspace's webhook answers exactly like a missing one.
2. **Event outbox**: :func:`emit_event` is what the rest of the service calls to publish an
   event. It writes the event row and an outbox command in the caller's transaction; the command's
   actor (:func:`fan_out_event`) creates one delivery per subscribed webhook.
3. **Deliveries** (actors): :func:`claim_delivery` decides whether an attempt may start now and
   leases it; the actor sends the request; :func:`record_attempt` records the outcome, schedules
   the retry, counts consecutive failures and disables the webhook at 50. :func:`overdue_deliveries`
   finds deliveries whose message was lost (the scheduler's sweep).

Timing rules are in :mod:`domain.webhook_schedule`, signatures in :mod:`domain.webhook_signing`,
the SSRF guard in :mod:`domain.webhook_url_guard`. docs/webhooks.md has the whole design.
"""

from __future__ import annotations

import decimal
import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Awaitable, Callable, Mapping

from tortoise.expressions import F, Q

from custody import clock
from custody.clock import rfc3339
from custody.crypto import seal, unseal
from custody.outbox import add_command
from custody.settings import get_settings
from domain import audit
from domain import webhook_schedule as schedule
from domain import webhook_signing as signing
from domain import webhook_url_guard as url_guard
from domain.auth import Principal
from domain.errors import Conflict, NotFound, ValidationFailed, field_error
from domain.permissions import Permission
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent

# --- catalogue -------------------------------------------------------------------------------

TRANSACTION_CREATED = "transaction.created"
TRANSACTION_UPDATED = "transaction.updated"
WEBHOOK_TEST = "webhook.test"

#: Every event type the service emits, with what it reports (docs/webhooks.md).
EVENT_TYPES: dict[str, str] = {
    TRANSACTION_CREATED: "a withdrawal was created or a deposit was detected",
    TRANSACTION_UPDATED: "a transaction changed status, confirmations or balances",
    WEBHOOK_TEST: "a test event sent on request to one webhook (POST .../test)",
}
#: What a webhook may subscribe to: exact types and whole families.
SUBSCRIBABLE_TYPES = frozenset({TRANSACTION_CREATED, TRANSACTION_UPDATED})
SUBSCRIBABLE_FAMILIES = frozenset({"transaction.*"})

STATUS_ACTIVE = "active"
STATUS_DISABLED = "disabled"
WEBHOOK_STATUSES = frozenset({STATUS_ACTIVE, STATUS_DISABLED})

PENDING, RETRYING, SUCCEEDED, FAILED = "pending", "retrying", "succeeded", "failed"
DELIVERY_STATUSES = frozenset({PENDING, RETRYING, SUCCEEDED, FAILED})
OPEN_STATUSES = (PENDING, RETRYING)

# --- limits and timing -----------------------------------------------------------------------

MAX_WEBHOOKS_PER_WORKSPACE = 20
MAX_DESCRIPTION_LENGTH = 255
#: After a rotation the previous secret keeps signing for this long (receivers switch over).
SECRET_ROTATION_GRACE = timedelta(hours=24)
#: Stored response body (spec: first 4 KB).
RESPONSE_BODY_LIMIT = 4096
#: An attempt's lease outlives the request timeout by this much (then it counts as lost).
LEASE_MARGIN = timedelta(seconds=60)
#: A message arriving this early is still treated as due (clock differences between processes).
DUE_TOLERANCE = timedelta(seconds=1)
#: The sweep re-enqueues a delivery due for longer than this with no message seen working on it.
SWEEP_GRACE = timedelta(seconds=60)
SWEEP_BATCH = 500

# --- actors (declared in actors/webhooks.py) --------------------------------------------------

#: Outbox command: create the deliveries of one event and enqueue them.
FAN_OUT = "webhooks.fan_out"
#: Outbox command: enqueue every due delivery of one webhook (after a replay).
ENQUEUE_DUE = "webhooks.enqueue_due"
#: Plain actor ``deliver(delivery_id, attempt)``: one attempt; queue ``webhooks``.
DELIVER = "webhooks.deliver"

ERROR_WEBHOOK_DISABLED = "webhook disabled"
ERROR_WEBHOOK_DELETED = "webhook deleted"


def _not_found() -> NotFound:
    return NotFound("webhook not found", code="WEBHOOK_NOT_FOUND")


# --- pure helpers ------------------------------------------------------------------------------


def is_subscribed(event_types: list[str], event_type: str) -> bool:
    """Whether a subscription list covers ``event_type`` (exact name or ``family.*``)."""
    family = event_type.split(".", 1)[0] + ".*"
    return event_type in event_types or family in event_types


def parse_event_types(value: Any) -> list[str]:
    """A subscription list: a non-empty array of known event types or families, deduplicated."""
    if not isinstance(value, list) or not value:
        raise field_error("event_types", "must be a non-empty array of event types")
    allowed = SUBSCRIBABLE_TYPES | SUBSCRIBABLE_FAMILIES
    result: list[str] = []
    for item in value:
        if not isinstance(item, str) or item not in allowed:
            raise ValidationFailed(
                f"event_types: {item!r} is not a subscribable event type",
                code="INVALID_EVENT_TYPE",
                details={"field": "event_types", "reason": f"must be among {', '.join(sorted(allowed))}",
                         "value": item if isinstance(item, str) else None},
            )
        if item not in result:
            result.append(item)
    return result


def parse_description(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise field_error("description", "must be a string")
    value = value.strip()
    if len(value) > MAX_DESCRIPTION_LENGTH:
        raise field_error("description", f"must be at most {MAX_DESCRIPTION_LENGTH} characters")
    return value




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


def _seal_secret(secret: str) -> bytes:
    return seal(secret.encode())


def signing_secrets(webhook: Webhook, *, now: datetime) -> list[str]:
    """The secrets that sign an attempt now: the current one, plus the previous one in its grace."""
    secrets = [unseal(bytes(webhook.secret_sealed)).decode()]
    if (webhook.previous_secret_sealed is not None and webhook.previous_secret_expires_at is not None
            and webhook.previous_secret_expires_at > now):
        secrets.append(unseal(bytes(webhook.previous_secret_sealed)).decode())
    return secrets


# --- management ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    items: list[Any]
    total: int
    limit: int
    offset: int


async def _load(workspace_id: uuid.UUID, webhook_id: uuid.UUID, *, lock: bool = False) -> Webhook:
    query = Webhook.filter(id=webhook_id, workspace_id=workspace_id, deleted_at__isnull=True)
    webhook = await (query.select_for_update(no_key=True) if lock else query).first()
    if webhook is None:
        raise _not_found()
    return webhook


async def create_webhook(
    *, principal: Principal, workspace_id: uuid.UUID, url: Any, event_types: Any, description: Any = None
) -> tuple[Webhook, str]:
    """Create an active webhook; returns it and its secret (shown only now and on rotation)."""
    principal.require(workspace_id, Permission.MANAGE_WEBHOOKS)
    subscribed = parse_event_types(event_types)
    text = parse_description(description)
    target = await url_guard.vet_url(url, allow_loopback=get_settings().webhook_allow_loopback)
    count = await Webhook.filter(workspace_id=workspace_id, deleted_at__isnull=True).count()
    if count >= MAX_WEBHOOKS_PER_WORKSPACE:
        raise Conflict(f"a workspace has at most {MAX_WEBHOOKS_PER_WORKSPACE} webhooks",
                       code="WEBHOOK_LIMIT_REACHED", details={"limit": MAX_WEBHOOKS_PER_WORKSPACE})
    secret = signing.generate_secret()
    webhook = await Webhook.create(workspace_id=workspace_id, url=target.url, description=text,
                                   event_types=subscribed, secret_sealed=_seal_secret(secret))
    await audit.record(action="webhook.created", object_type="webhook", object_id=webhook.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"url": webhook.url, "event_types": subscribed})
    return webhook, secret


async def list_webhooks(*, principal: Principal, workspace_id: uuid.UUID, limit: int, offset: int) -> Page:
    principal.require(workspace_id, Permission.VIEW_WEBHOOKS)
    query = Webhook.filter(workspace_id=workspace_id, deleted_at__isnull=True)
    total = await query.count()
    items = await query.order_by("created_at", "id").offset(offset).limit(limit)
    return Page(items=items, total=total, limit=limit, offset=offset)


async def get_webhook(*, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID) -> Webhook:
    principal.require(workspace_id, Permission.VIEW_WEBHOOKS)
    return await _load(workspace_id, webhook_id)


UPDATABLE_FIELDS = frozenset({"url", "event_types", "description", "status"})


async def update_webhook(
    *, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID, changes: Mapping[str, Any]
) -> Webhook:
    """Change any of url, event_types, description, status.

    ``status: active`` reactivates a disabled webhook: the failure count restarts at zero and
    deliveries recorded while it was disabled stay failed (replay sends them). ``status:
    disabled`` pauses it by hand; its open deliveries fail with "webhook disabled".
    """
    principal.require(workspace_id, Permission.MANAGE_WEBHOOKS)
    unknown = sorted(set(changes) - UPDATABLE_FIELDS)
    if unknown:
        raise field_error(unknown[0], f"is not an updatable field (use {', '.join(sorted(UPDATABLE_FIELDS))})")
    if not changes:
        raise ValidationFailed("nothing to update: send at least one of "
                               f"{', '.join(sorted(UPDATABLE_FIELDS))}", code="VALIDATION_ERROR",
                               details={"reason": "empty update"})
    # Validate everything before the first write: a bad field leaves the webhook untouched.
    new_status = changes.get("status")
    if "status" in changes and new_status not in WEBHOOK_STATUSES:
        raise field_error("status", f"must be one of {', '.join(sorted(WEBHOOK_STATUSES))}")
    subscribed = parse_event_types(changes["event_types"]) if "event_types" in changes else None
    text = parse_description(changes["description"]) if "description" in changes else None
    target = None
    if "url" in changes:
        target = await url_guard.vet_url(changes["url"], allow_loopback=get_settings().webhook_allow_loopback)

    webhook = await _load(workspace_id, webhook_id, lock=True)
    now = clock.now()
    changed: dict[str, Any] = {}
    if target is not None and target.url != webhook.url:
        webhook.url = changed["url"] = target.url
    if subscribed is not None and subscribed != webhook.event_types:
        webhook.event_types = changed["event_types"] = subscribed
    if text is not None and text != webhook.description:
        webhook.description = changed["description"] = text
    if new_status is not None and new_status != webhook.status:
        changed["status"] = new_status
        if new_status == STATUS_ACTIVE:
            webhook.status = STATUS_ACTIVE
            webhook.consecutive_failures = 0
            webhook.disabled_at = None
            webhook.disabled_reason = None
        else:
            await _disable(webhook, reason="disabled by a user", now=now, actor_id=principal.user.id)
    if changed:
        await webhook.save()
        await audit.record(action="webhook.updated", object_type="webhook", object_id=webhook.id,
                           actor_id=principal.user.id, workspace_id=workspace_id, details=changed)
    return webhook


async def delete_webhook(*, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID) -> None:
    """Delete a webhook: it disappears from the API and its open deliveries fail."""
    principal.require(workspace_id, Permission.MANAGE_WEBHOOKS)
    webhook = await _load(workspace_id, webhook_id, lock=True)
    now = clock.now()
    webhook.deleted_at = now
    await webhook.save(update_fields=["deleted_at"])
    await _fail_open_deliveries(webhook.id, error=ERROR_WEBHOOK_DELETED, now=now)
    await audit.record(action="webhook.deleted", object_type="webhook", object_id=webhook.id,
                       actor_id=principal.user.id, workspace_id=workspace_id, details={"url": webhook.url})


async def rotate_secret(
    *, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID
) -> tuple[Webhook, str]:
    """A new secret signs from now on; the replaced one also signs for 24 hours (grace).

    Rotating again within the grace period drops the oldest secret: at most two sign at once.
    """
    principal.require(workspace_id, Permission.MANAGE_WEBHOOKS)
    webhook = await _load(workspace_id, webhook_id, lock=True)
    now = clock.now()
    secret = signing.generate_secret()
    webhook.previous_secret_sealed = webhook.secret_sealed
    webhook.previous_secret_expires_at = now + SECRET_ROTATION_GRACE
    webhook.secret_sealed = _seal_secret(secret)
    webhook.secret_rotated_at = now
    await webhook.save()
    await audit.record(action="webhook.secret_rotated", object_type="webhook", object_id=webhook.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"previous_secret_expires_at": rfc3339(webhook.previous_secret_expires_at)})
    return webhook, secret


def _require_active(webhook: Webhook, action: str) -> None:
    if webhook.status != STATUS_ACTIVE:
        raise Conflict(f"the webhook is disabled: reactivate it (PUT with status active) before {action}",
                       code="WEBHOOK_DISABLED", details={"status": webhook.status})


async def send_test_event(
    *, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID
) -> tuple[WebhookEvent, WebhookDelivery]:
    """Send a ``webhook.test`` event to this webhook only, through the normal delivery path."""
    principal.require(workspace_id, Permission.MANAGE_WEBHOOKS)
    webhook = await _load(workspace_id, webhook_id)
    _require_active(webhook, "sending a test event")
    event = await emit_event(
        workspace_id=workspace_id, event_type=WEBHOOK_TEST, target_webhook_id=webhook.id,
        data={"webhook_id": str(webhook.id), "message": "Test event from the custody wallet service."},
    )
    # Created here (the fan-out finds it) so that the caller gets the delivery id at once.
    delivery = await _create_delivery(event, webhook, now=event.created_at)
    return event, delivery


async def list_deliveries(
    *, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID, status: str | None,
    event_type: str | None, limit: int, offset: int,
) -> Page:
    """The webhook's delivery history, newest first, optionally by status and event type."""
    principal.require(workspace_id, Permission.VIEW_WEBHOOKS)
    webhook = await _load(workspace_id, webhook_id)
    query = WebhookDelivery.filter(webhook_id=webhook.id, workspace_id=workspace_id)
    if status is not None:
        if status not in DELIVERY_STATUSES:
            raise field_error("status", f"must be one of {', '.join(sorted(DELIVERY_STATUSES))}")
        query = query.filter(status=status)
    if event_type is not None:
        if event_type in SUBSCRIBABLE_FAMILIES:
            query = query.filter(event_type__startswith=event_type[:-1])
        elif event_type in EVENT_TYPES:
            query = query.filter(event_type=event_type)
        else:
            raise field_error("event_type", f"must be one of {', '.join(sorted(set(EVENT_TYPES) | SUBSCRIBABLE_FAMILIES))}")
    total = await query.count()
    items = await query.order_by("-created_at", "-id").offset(offset).limit(limit)
    return Page(items=items, total=total, limit=limit, offset=offset)


async def get_delivery(
    *, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID, delivery_id: uuid.UUID
) -> tuple[WebhookDelivery, list[WebhookAttempt]]:
    """One delivery with every attempt (oldest first)."""
    principal.require(workspace_id, Permission.VIEW_WEBHOOKS)
    webhook = await _load(workspace_id, webhook_id)
    delivery = await WebhookDelivery.get_or_none(id=delivery_id, webhook_id=webhook.id, workspace_id=workspace_id)
    if delivery is None:
        raise NotFound("delivery not found", code="WEBHOOK_DELIVERY_NOT_FOUND")
    attempts = await WebhookAttempt.filter(delivery_id=delivery.id).order_by("attempt_number")
    return delivery, attempts


@dataclass(frozen=True)
class Replay:
    queued: int
    since: datetime


async def replay(*, principal: Principal, workspace_id: uuid.UUID, webhook_id: uuid.UUID) -> Replay:
    """Queue redelivery of every retrying or failed delivery of the last 7 days.

    Each starts a fresh 24 hour retry window; attempt numbers continue. Refused while the
    webhook is disabled (reactivate first), so that nothing is queued only to fail again.
    """
    principal.require(workspace_id, Permission.MANAGE_WEBHOOKS)
    webhook = await _load(workspace_id, webhook_id, lock=True)
    _require_active(webhook, "replaying")
    now = clock.now()
    since = now - schedule.REPLAY_PERIOD
    selected = WebhookDelivery.filter(webhook_id=webhook.id, status__in=[RETRYING, FAILED], created_at__gte=since)
    # Deliveries with an attempt in flight are left alone: that attempt decides their fate.
    queued = await selected.filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lte=now)).update(
        status=PENDING, next_attempt_at=now, enqueued_at=now, window_started_at=None, finished_at=None,
        parked_at=None, replay_count=F("replay_count") + 1, updated_at=now)
    if queued:
        await add_command(actor_name=ENQUEUE_DUE, payload={"webhook_id": str(webhook.id)},
                          workspace_id=workspace_id)
    await audit.record(action="webhook.replayed", object_type="webhook", object_id=webhook.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"queued": queued, "since": rfc3339(since)})
    return Replay(queued=queued, since=since)


# --- event outbox ----------------------------------------------------------------------------


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
    ...     await webhooks.emit_event(workspace_id=tx.workspace_id, event_type="transaction.updated",
    ...                               data=serialize(tx))
    """
    if event_type not in EVENT_TYPES:
        raise ValueError(f"unknown webhook event type {event_type!r}; add it to domain.webhooks.EVENT_TYPES")
    now = clock.now()
    event_id = uuid.uuid4()
    payload = render_envelope(event_id=event_id, event_type=event_type, created_at=now,
                              workspace_id=workspace_id, data=data)
    event = await WebhookEvent.create(id=event_id, workspace_id=workspace_id, type=event_type, payload=payload,
                                      target_webhook_id=target_webhook_id, created_at=now)
    await add_command(actor_name=FAN_OUT, payload={"event_id": str(event.id)}, workspace_id=workspace_id)
    return event


async def _create_delivery(event: WebhookEvent, webhook: Webhook, *, now: datetime) -> WebhookDelivery:
    """Create the delivery of ``event`` to ``webhook`` (the caller knows there is none yet)."""
    if webhook.status == STATUS_ACTIVE:
        return await WebhookDelivery.create(workspace_id=event.workspace_id, webhook=webhook, event=event,  # type: ignore[attr-defined]
                                            event_type=event.type, status=PENDING, next_attempt_at=now,
                                            enqueued_at=now, created_at=now, updated_at=now)
    # Recorded for the disabled webhook, never sent automatically: replay after reactivation.
    return await WebhookDelivery.create(workspace_id=event.workspace_id, webhook=webhook, event=event,  # type: ignore[attr-defined]
                                        event_type=event.type, status=FAILED, last_error=ERROR_WEBHOOK_DISABLED,
                                        finished_at=now, created_at=now, updated_at=now)


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
    if event.target_webhook_id is not None:  # type: ignore[attr-defined]
        webhooks = await Webhook.filter(id=event.target_webhook_id, deleted_at__isnull=True)  # type: ignore[attr-defined]
    else:
        candidates = await Webhook.filter(workspace_id=event.workspace_id, deleted_at__isnull=True)  # type: ignore[attr-defined]
        webhooks = [w for w in candidates if is_subscribed(w.event_types, event.type)]
    existing = {d.webhook_id: d for d in await WebhookDelivery.filter(event_id=event.id)}  # type: ignore[attr-defined]
    due = []
    for webhook in webhooks:
        # One delivery per (event, webhook): a fan-out that runs again finds the ones it made.
        delivery = existing.get(webhook.id) or await _create_delivery(event, webhook, now=now)
        if delivery.status == PENDING:
            due.append(DueDelivery(delivery.id, delivery.attempt_count + 1))
    return due


async def due_deliveries_of(*, webhook_id: uuid.UUID) -> list[DueDelivery]:
    """Every delivery of a webhook that is due now and not in flight (what a replay queued)."""
    now = clock.now()
    rows = await WebhookDelivery.filter(
        webhook_id=webhook_id, status__in=list(OPEN_STATUSES), next_attempt_at__lte=now
    ).filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lte=now)).order_by("next_attempt_at", "id").values_list(
        "id", "attempt_count")
    return [DueDelivery(row[0], row[1] + 1) for row in rows]


# --- deliveries --------------------------------------------------------------------------------


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
    await delivery.save(update_fields=["lease_expires_at", "parked_at", "window_started_at"])
    return Claim("send", webhook_id=webhook.id, job=DeliveryJob(
        delivery_id=delivery.id, webhook_id=webhook.id, event_id=delivery.event.id, url=webhook.url,
        body=delivery.event.payload.encode(), attempt=delivery.attempt_count + 1,
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
    number = delivery.attempt_count + 1
    await WebhookAttempt.create(delivery_id=delivery.id, attempt_number=number, started_at=outcome.started_at,
                                duration_ms=outcome.duration_ms, response_status=outcome.response_status,
                                response_body=outcome.response_body, error=outcome.error,
                                succeeded=outcome.succeeded)
    delivery.attempt_count = number
    delivery.last_attempt_at = outcome.started_at
    delivery.last_response_status = outcome.response_status
    delivery.last_response_body = outcome.response_body
    delivery.last_error = outcome.error
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
        await _disable(webhook, now=now, actor_id=None,
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
    rows = await WebhookDelivery.filter(
        webhook_id=webhook_id, parked_at__isnull=False, status__in=list(OPEN_STATUSES)
    ).order_by("parked_at", "id").limit(free_slots).select_for_update(skip_locked=True).values_list(
        "id", "attempt_count")
    if not rows:
        return []
    await WebhookDelivery.filter(id__in=[row[0] for row in rows]).update(parked_at=None, enqueued_at=clock.now())
    return [DueDelivery(row[0], row[1] + 1) for row in rows]


async def _fail_open_deliveries(webhook_id: uuid.UUID, *, error: str, now: datetime,
                                except_delivery: uuid.UUID | None = None) -> int:
    """Fail every open delivery of the webhook that has no attempt in flight."""
    query = WebhookDelivery.filter(webhook_id=webhook_id, status__in=list(OPEN_STATUSES)).filter(
        Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lte=now))
    if except_delivery is not None:
        query = query.exclude(id=except_delivery)
    return await query.update(status=FAILED, last_error=error, finished_at=now, next_attempt_at=None,
                              lease_expires_at=None, parked_at=None, updated_at=now)


async def _disable(webhook: Webhook, *, reason: str, now: datetime, actor_id: uuid.UUID | None,
                   except_delivery: uuid.UUID | None = None) -> None:
    """Disable the (locked) webhook: nothing more is sent; open deliveries fail."""
    webhook.status = STATUS_DISABLED
    webhook.disabled_at = now
    webhook.disabled_reason = reason
    await webhook.save()
    failed = await _fail_open_deliveries(webhook.id, error=ERROR_WEBHOOK_DISABLED, now=now,
                                         except_delivery=except_delivery)
    await audit.record(action="webhook.disabled", object_type="webhook", object_id=webhook.id, actor_id=actor_id,
                       workspace_id=webhook.workspace_id,  # type: ignore[attr-defined]
                       details={"reason": reason, "open_deliveries_failed": failed,
                                "consecutive_failures": webhook.consecutive_failures})


async def overdue_deliveries(*, grace: timedelta = SWEEP_GRACE, limit: int = SWEEP_BATCH) -> list[DueDelivery]:
    """Deliveries whose message seems lost; marks them enqueued now (the caller enqueues).

    Overdue: open, due for longer than ``grace``, no message sent for it within ``grace``, no
    attempt in flight. A parked delivery is overdue only when its webhook has no attempt in
    flight (otherwise a finishing attempt will hand it a slot).
    """
    now = clock.now()
    cutoff = now - grace
    rows = await WebhookDelivery.filter(
        status__in=list(OPEN_STATUSES), next_attempt_at__lte=cutoff,
    ).filter(
        Q(enqueued_at__isnull=True) | Q(enqueued_at__lte=cutoff)
    ).filter(
        Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lte=now)
    ).order_by("next_attempt_at").limit(limit).select_for_update(skip_locked=True).values_list(
        "id", "attempt_count", "parked_at", "webhook_id")
    busy: dict[uuid.UUID, bool] = {}
    due: list[DueDelivery] = []
    for delivery_id, attempt_count, parked_at, webhook_id in rows:
        if parked_at is not None:
            if webhook_id not in busy:
                busy[webhook_id] = await WebhookDelivery.filter(webhook_id=webhook_id,
                                                                lease_expires_at__gt=now).exists()
            if busy[webhook_id]:
                continue
        due.append(DueDelivery(delivery_id, attempt_count + 1))
    if due:
        await WebhookDelivery.filter(id__in=[d.delivery_id for d in due]).update(enqueued_at=now)
    return due


def truncate_body(raw: bytes) -> str:
    """The stored form of a response body: its first 4 KB, decoded leniently."""
    return raw[:RESPONSE_BODY_LIMIT].decode("utf-8", errors="replace")
