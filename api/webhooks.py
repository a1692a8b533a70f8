"""Webhook management: /api/v1/webhooks (gateway paths; bearer token and X-Workspace-Id).

Reads need VIEW_WEBHOOKS, changes MANAGE_WEBHOOKS. Paths and bodies: docs/webhooks.md.
Another workspace's webhook answers exactly like a missing one (404 WEBHOOK_NOT_FOUND).
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request

from api.context import workspace
from api.contract import endpoint
from api.schemas.webhooks import (
    DeliveryListQuery,
    ReplayRequest,
    Webhook,
    WebhookCreate,
    WebhookDeliveryDetail,
    WebhookDeliveryList,
    WebhookList,
    WebhookListQuery,
    WebhookReplay,
    WebhookTestEvent,
    WebhookUpdate,
    WebhookWithSecret,
)
from core.unit_of_work import unit_of_work
from domain.webhooks import management, url_guard

bp = Blueprint("webhooks", url_prefix="/api/v1/webhooks")

_TAG = "webhooks"
_NOT_FOUND = {404: ["WEBHOOK_NOT_FOUND"]}
#: A URL the guard refuses (malformed, pointing at a forbidden address, or not resolving).
_URL_ERRORS = [url_guard.INVALID_URL, url_guard.FORBIDDEN_URL, url_guard.UNRESOLVABLE_URL]


@bp.post("")
@endpoint(summary="Create a webhook (MANAGE_WEBHOOKS); the answer shows its secret once", tag=_TAG,
          body=WebhookCreate, responses={201: WebhookWithSecret}, workspace=True,
          errors={400: [*_URL_ERRORS, "INVALID_EVENT_TYPE"], 409: ["WEBHOOK_LIMIT_REACHED"]})
async def create_webhook(request: Request, body: WebhookCreate) -> WebhookWithSecret:
    caller, ws = await workspace(request)
    async with unit_of_work():
        webhook, secret = await management.create_webhook(
            principal=caller, workspace_id=ws.id, url=body.url, event_types=list(body.event_types),
            description=body.description)
    return WebhookWithSecret.with_secret(webhook, secret)


@bp.get("")
@endpoint(summary="The workspace's webhooks, oldest first (VIEW_WEBHOOKS)", tag=_TAG, query=WebhookListQuery,
          responses={200: WebhookList}, workspace=True)
async def list_webhooks(request: Request, query: WebhookListQuery) -> WebhookList:
    caller, ws = await workspace(request)
    page = await management.list_webhooks(principal=caller, workspace_id=ws.id, limit=query.limit,  # type: ignore[attr-defined]  # a page_query class
                                          offset=query.offset)  # type: ignore[attr-defined]  # a page_query class
    return WebhookList.of(page)


@bp.get("/<webhook_id:uuid>")
@endpoint(summary="One webhook (VIEW_WEBHOOKS)", tag=_TAG, responses={200: Webhook}, workspace=True,
          errors=_NOT_FOUND)
async def get_webhook(request: Request, webhook_id: uuid.UUID) -> Webhook:
    caller, ws = await workspace(request)
    return Webhook.of(await management.get_webhook(principal=caller, workspace_id=ws.id, webhook_id=webhook_id))


@bp.put("/<webhook_id:uuid>")
@endpoint(summary="Update a webhook (MANAGE_WEBHOOKS); status active reactivates a disabled one", tag=_TAG,
          body=WebhookUpdate, responses={200: Webhook}, workspace=True,
          errors={400: [*_URL_ERRORS, "INVALID_EVENT_TYPE"], **_NOT_FOUND})
async def update_webhook(request: Request, webhook_id: uuid.UUID, body: WebhookUpdate) -> Webhook:
    caller, ws = await workspace(request)
    async with unit_of_work():
        webhook = await management.update_webhook(principal=caller, workspace_id=ws.id, webhook_id=webhook_id,
                                                  changes=body.model_dump(exclude_unset=True))
    return Webhook.of(webhook)


@bp.delete("/<webhook_id:uuid>")
@endpoint(summary="Delete a webhook (MANAGE_WEBHOOKS); its open deliveries fail", tag=_TAG,
          responses={204: None}, workspace=True, errors=_NOT_FOUND)
async def delete_webhook(request: Request, webhook_id: uuid.UUID) -> None:
    caller, ws = await workspace(request)
    async with unit_of_work():
        await management.delete_webhook(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)


@bp.post("/<webhook_id:uuid>/rotate-secret")
@endpoint(summary="Rotate the signing secret (MANAGE_WEBHOOKS); the old one also signs for 24 hours", tag=_TAG,
          responses={200: WebhookWithSecret}, workspace=True, errors=_NOT_FOUND)
async def rotate_secret(request: Request, webhook_id: uuid.UUID) -> WebhookWithSecret:
    caller, ws = await workspace(request)
    async with unit_of_work():
        webhook, secret = await management.rotate_secret(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return WebhookWithSecret.with_secret(webhook, secret)


@bp.post("/<webhook_id:uuid>/test")
@endpoint(summary="Send a webhook.test event to this webhook (MANAGE_WEBHOOKS)", tag=_TAG,
          responses={202: WebhookTestEvent}, workspace=True, errors={**_NOT_FOUND, 409: ["WEBHOOK_DISABLED"]})
async def send_test_event(request: Request, webhook_id: uuid.UUID) -> WebhookTestEvent:
    caller, ws = await workspace(request)
    async with unit_of_work():
        event, delivery = await management.send_test_event(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return WebhookTestEvent.of(event, delivery)


@bp.get("/<webhook_id:uuid>/deliveries")
@endpoint(summary="Delivery history, newest first (VIEW_WEBHOOKS)", tag=_TAG, query=DeliveryListQuery,
          responses={200: WebhookDeliveryList}, workspace=True, errors=_NOT_FOUND)
async def list_deliveries(request: Request, webhook_id: uuid.UUID, query: DeliveryListQuery) -> WebhookDeliveryList:
    caller, ws = await workspace(request)
    page = await management.list_deliveries(
        principal=caller, workspace_id=ws.id, webhook_id=webhook_id, status=query.status,
        event_type=query.event_type, limit=query.limit, offset=query.offset)
    return WebhookDeliveryList.of(page)


@bp.get("/<webhook_id:uuid>/deliveries/<delivery_id:uuid>")
@endpoint(summary="One delivery with all its attempts (VIEW_WEBHOOKS)", tag=_TAG,
          responses={200: WebhookDeliveryDetail}, workspace=True,
          errors={404: ["WEBHOOK_NOT_FOUND", "WEBHOOK_DELIVERY_NOT_FOUND"]})
async def get_delivery(request: Request, webhook_id: uuid.UUID, delivery_id: uuid.UUID) -> WebhookDeliveryDetail:
    caller, ws = await workspace(request)
    delivery, attempts = await management.get_delivery(principal=caller, workspace_id=ws.id, webhook_id=webhook_id,
                                                       delivery_id=delivery_id)
    return WebhookDeliveryDetail.with_attempts(delivery, attempts)


@bp.post("/<webhook_id:uuid>/replay")
@endpoint(summary="Redeliver every retrying or failed delivery of the last 7 days (MANAGE_WEBHOOKS)", tag=_TAG,
          description="Takes no body (an empty object is accepted; any field is refused).",
          body=ReplayRequest, body_required=False, responses={202: WebhookReplay}, workspace=True,
          errors={**_NOT_FOUND, 409: ["WEBHOOK_DISABLED"]})
async def replay(request: Request, webhook_id: uuid.UUID, body: ReplayRequest) -> WebhookReplay:
    caller, ws = await workspace(request)
    async with unit_of_work():
        result = await management.replay(principal=caller, workspace_id=ws.id, webhook_id=webhook_id)
    return WebhookReplay.of(result)
