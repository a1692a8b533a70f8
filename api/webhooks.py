"""Webhook management: /api/v1/webhooks (gateway paths; bearer token and X-Workspace-Id).

Reads need VIEW_WEBHOOKS, changes MANAGE_WEBHOOKS. Paths and bodies: docs/webhooks.md.
"""

from __future__ import annotations

import uuid
from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, empty, json
from sanic_ext import openapi

from api.context import iso, json_body, workspace
from core import clock
from core.unit_of_work import unit_of_work
from domain import validation as v
from domain.errors import field_error
from domain.webhooks import management
from models.webhooks import Webhook, WebhookAttempt, WebhookDelivery

bp = Blueprint("webhooks", url_prefix="/api/v1/webhooks")

DEFAULT_LIMIT = 50
MAX_LIMIT = 250
CREATE_FIELDS = frozenset({"url", "event_types", "description"})


def serialize(webhook: Webhook) -> dict[str, Any]:
    """A webhook as the API shows it; the secret is never part of it (see create and rotate)."""
    grace_ends = webhook.previous_secret_expires_at
    return {
        "id": str(webhook.id),
        "url": webhook.url,
        "description": webhook.description,
        "event_types": list(webhook.event_types),
        "status": webhook.status,
        "disabled_reason": webhook.disabled_reason,
        "disabled_at": iso(webhook.disabled_at),
        "consecutive_failures": webhook.consecutive_failures,
        "secret_rotated_at": iso(webhook.secret_rotated_at),
        # Until then the previous secret also signs (null when no previous secret is valid).
        "previous_secret_expires_at": iso(grace_ends) if grace_ends and grace_ends > clock.now() else None,
        "last_success_at": iso(webhook.last_success_at),
        "last_failure_at": iso(webhook.last_failure_at),
        "created_at": iso(webhook.created_at),
        "updated_at": iso(webhook.updated_at),
    }


def serialize_delivery(delivery: WebhookDelivery) -> dict[str, Any]:
    """A delivery history entry: status, the last attempt's number, HTTP code, body and error."""
    return {
        "id": str(delivery.id),
        "webhook_id": str(delivery.webhook_id),  # type: ignore[attr-defined]
        "event_id": str(delivery.event_id),  # type: ignore[attr-defined]
        "event_type": delivery.event_type,
        "status": delivery.status,
        "attempt": delivery.attempt_count,
        "response_status_code": delivery.last_response_status,
        "response_body": delivery.last_response_body,
        "error": delivery.last_error,
        "created_at": iso(delivery.created_at),
        "last_attempt_at": iso(delivery.last_attempt_at),
        "next_attempt_at": iso(delivery.next_attempt_at),
        "finished_at": iso(delivery.finished_at),
        "replay_count": delivery.replay_count,
    }


def serialize_attempt(attempt: WebhookAttempt) -> dict[str, Any]:
    return {
        "attempt": attempt.attempt_number,
        "started_at": iso(attempt.started_at),
        "duration_ms": attempt.duration_ms,
        "response_status_code": attempt.response_status,
        "response_body": attempt.response_body,
        "error": attempt.error,
        "succeeded": attempt.succeeded,
    }


def _page(page: management.Page, serializer: Any) -> dict[str, Any]:
    return {"items": [serializer(item) for item in page.items], "total": page.total, "limit": page.limit,
            "offset": page.offset}


def _reject_unknown(body: dict[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise field_error(unknown[0], f"is not a known field (expected {', '.join(sorted(allowed))})")


@bp.post("")
@openapi.summary("Create a webhook (MANAGE_WEBHOOKS); the answer shows its secret once")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
@openapi.body({"application/json": {"url": str, "event_types": [str], "description": str}})
async def create_webhook(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    _reject_unknown(body, CREATE_FIELDS)
    async with unit_of_work():
        webhook, secret = await management.create_webhook(
            principal=caller, workspace_id=ws.id, url=body.get("url"), event_types=body.get("event_types"),
            description=body.get("description"))
    return json(dict(serialize(webhook), secret=secret), status=201)


@bp.get("")
@openapi.summary("The workspace's webhooks (VIEW_WEBHOOKS)")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
@openapi.parameter("limit", int, "query")
@openapi.parameter("offset", int, "query")
async def list_webhooks(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    limit, offset = v.page(request.args, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    page = await management.list_webhooks(principal=caller, workspace_id=ws.id, limit=limit, offset=offset)
    return json(_page(page, serialize))


@bp.get("/<webhook_id:uuid>")
@openapi.summary("One webhook (VIEW_WEBHOOKS)")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def get_webhook(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    return json(serialize(await management.get_webhook(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)))


@bp.put("/<webhook_id:uuid>")
@openapi.summary("Update a webhook (MANAGE_WEBHOOKS); status active reactivates a disabled one")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
@openapi.body({"application/json": {"url": str, "event_types": [str], "description": str, "status": str}})
async def update_webhook(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    body = json_body(request)
    async with unit_of_work():
        webhook = await management.update_webhook(principal=caller, workspace_id=ws.id, webhook_id=webhook_id,
                                                changes=body)
    return json(serialize(webhook))


@bp.delete("/<webhook_id:uuid>")
@openapi.summary("Delete a webhook (MANAGE_WEBHOOKS); its open deliveries fail")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def delete_webhook(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await management.delete_webhook(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return empty(status=204)


@bp.post("/<webhook_id:uuid>/rotate-secret")
@openapi.summary("Rotate the signing secret (MANAGE_WEBHOOKS); the old one also signs for 24 hours")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def rotate_secret(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        webhook, secret = await management.rotate_secret(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return json(dict(serialize(webhook), secret=secret))


@bp.post("/<webhook_id:uuid>/test")
@openapi.summary("Send a webhook.test event to this webhook (MANAGE_WEBHOOKS)")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def send_test_event(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        event, delivery = await management.send_test_event(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return json({"event_id": str(event.id), "event_type": event.type, "delivery_id": str(delivery.id)}, status=202)


@bp.get("/<webhook_id:uuid>/deliveries")
@openapi.summary("Delivery history, newest first (VIEW_WEBHOOKS)")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
@openapi.parameter("status", str, "query")
@openapi.parameter("event_type", str, "query")
@openapi.parameter("limit", int, "query")
@openapi.parameter("offset", int, "query")
async def list_deliveries(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    limit, offset = v.page(request.args, default_limit=DEFAULT_LIMIT, max_limit=MAX_LIMIT)
    page = await management.list_deliveries(
        principal=caller, workspace_id=ws.id, webhook_id=webhook_id, status=request.args.get("status") or None,
        event_type=request.args.get("event_type") or None, limit=limit, offset=offset)
    return json(_page(page, serialize_delivery))


@bp.get("/<webhook_id:uuid>/deliveries/<delivery_id:uuid>")
@openapi.summary("One delivery with all its attempts (VIEW_WEBHOOKS)")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def get_delivery(request: Request, webhook_id: uuid.UUID, delivery_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    delivery, attempts = await management.get_delivery(principal=caller, workspace_id=ws.id, webhook_id=webhook_id,
                                                     delivery_id=delivery_id)
    return json(dict(serialize_delivery(delivery), attempts=[serialize_attempt(a) for a in attempts]))


@bp.post("/<webhook_id:uuid>/replay")
@openapi.summary("Redeliver every retrying or failed delivery of the last 7 days (MANAGE_WEBHOOKS)")
@openapi.secured("BearerAuth")
@openapi.parameter("X-Workspace-Id", str, "header")
async def replay(request: Request, webhook_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    _reject_unknown(json_body(request), frozenset())
    async with unit_of_work():
        result = await management.replay(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return json({"queued": result.queued, "since": iso(result.since)}, status=202)
