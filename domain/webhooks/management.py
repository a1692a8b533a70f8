"""Webhook management (the API's service functions): create, list, get, update, delete, rotate
the secret, send a test event, delivery history, replay.

Every query is scoped by workspace; another workspace's webhook answers exactly like a missing
one. Services never commit: the request boundary does.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Mapping

from tortoise.expressions import F, Q

from core import clock
from core.clock import rfc3339
from core.outbox import add_command
from core.sealing import seal
from core.settings import get_settings
from domain import audit
from domain.auth import Principal
from domain.errors import Conflict, NotFound, ValidationFailed, field_error
from domain.permissions import Permission
from domain.webhooks import schedule, url_guard
from domain.webhooks import signatures as signing
from domain.webhooks.catalogue import (
    DELIVERY_STATUSES,
    ENQUEUE_DUE,
    ERROR_WEBHOOK_DELETED,
    EVENT_TYPES,
    FAILED,
    MAX_WEBHOOKS_PER_WORKSPACE,
    PENDING,
    RETRYING,
    SECRET_ROTATION_GRACE,
    STATUS_ACTIVE,
    SUBSCRIBABLE_FAMILIES,
    WEBHOOK_STATUSES,
    WEBHOOK_TEST,
    parse_description,
    parse_event_types,
    webhook_not_found,
)
from domain.webhooks.delivery import disable, fail_open_deliveries
from domain.webhooks.events import create_delivery, emit_event
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery, WebhookEvent


def _seal_secret(secret: str) -> bytes:
    return seal(secret.encode())


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
        raise webhook_not_found()
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
            await disable(webhook, reason="disabled by a user", now=now, actor_id=principal.user.id)
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
    await fail_open_deliveries(webhook.id, error=ERROR_WEBHOOK_DELETED, now=now)
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
    delivery = await create_delivery(event, webhook, now=event.created_at)
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
