"""Webhook management requests and responses (/api/v1/webhooks; docs/webhooks.md).

Event types and statuses are the catalogue's (domain/webhooks/catalogue.py). A URL is checked
here for its shape only; the SSRF guard (domain/webhooks/url_guard.py) judges where it points.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints

from api.schemas.common import (
    Page,
    RequestBody,
    Resource,
    Timestamp,
    absent_means_unchanged,
    page_query,
    refused_as,
    text,
)
from core import clock
from domain.webhooks import catalogue, management, url_guard
from models.webhooks import Webhook as WebhookRow
from models.webhooks import WebhookAttempt as WebhookAttemptRow
from models.webhooks import WebhookDelivery as WebhookDeliveryRow
from models.webhooks import WebhookEvent

DEFAULT_LIMIT = 50
MAX_LIMIT = 250
#: Entries of one subscription list (duplicates are dropped, so a handful is all there is).
MAX_EVENT_TYPES = 20

_SUBSCRIBABLE = sorted(catalogue.SUBSCRIBABLE_TYPES | catalogue.SUBSCRIBABLE_FAMILIES)

#: What a webhook may subscribe to: an exact event type or a whole family (``transaction.*``).
SubscribableEventType = Literal[tuple(_SUBSCRIBABLE)]
#: Every event type the service emits (``webhook.test`` only on request, to one webhook).
EventType = Literal[tuple(catalogue.EVENT_TYPES)]
#: A delivery history filter: an event type or a family.
EventTypeFilter = Literal[tuple(sorted(set(catalogue.EVENT_TYPES) | catalogue.SUBSCRIBABLE_FAMILIES))]
WebhookStatus = Literal[tuple(sorted(catalogue.WEBHOOK_STATUSES))]
DeliveryStatus = Literal[tuple(sorted(catalogue.DELIVERY_STATUSES))]

#: A webhook URL as sent: its shape here (400 INVALID_WEBHOOK_URL); the SSRF guard then checks
#: the scheme, credentials, fragment, host and every address it resolves to.
WebhookUrl = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=url_guard.MAX_URL_LENGTH),
    refused_as(url_guard.INVALID_URL),
]
#: One subscription entry; anything else is 400 INVALID_EVENT_TYPE naming ``event_types``.
SubscriptionEntry = Annotated[
    SubscribableEventType,
    refused_as("INVALID_EVENT_TYPE", reason=f"must be among {', '.join(_SUBSCRIBABLE)}"),
]
EventTypes = Annotated[list[SubscriptionEntry], Field(min_length=1, max_length=MAX_EVENT_TYPES)]
Description = text(min_length=0, max_length=catalogue.MAX_DESCRIPTION_LENGTH)

_URL_TEXT = (f"https:// URL of the receiver, at most {url_guard.MAX_URL_LENGTH} characters; no credentials, no "
             "fragment; every address its host resolves to must be public (http only for loopback in development).")
_EVENT_TYPES_TEXT = "Event types and families to receive (duplicates are dropped)."


# --- requests ----------------------------------------------------------------------------------------


class WebhookCreate(RequestBody):
    url: WebhookUrl = Field(description=_URL_TEXT)
    event_types: EventTypes = Field(description=_EVENT_TYPES_TEXT)
    description: Description | None = Field(None, description="Free text, at most 255 characters.")


class WebhookUpdate(RequestBody):
    """Any of the fields, at least one. ``status: active`` reactivates a disabled webhook (the
    failure count restarts); ``status: disabled`` pauses it (its open deliveries fail)."""

    model_config = ConfigDict(json_schema_extra={"minProperties": 1})

    # Absent means unchanged; only description may be null (it clears it).
    url: WebhookUrl = Field(None, description=_URL_TEXT, json_schema_extra=absent_means_unchanged)  # type: ignore[assignment]  # absent means unchanged
    event_types: EventTypes = Field(None, description=_EVENT_TYPES_TEXT, json_schema_extra=absent_means_unchanged)  # type: ignore[arg-type]  # absent means unchanged
    description: Description | None = Field(None, description="Free text, at most 255 characters; null clears it.")
    status: WebhookStatus = Field(None, description="active or disabled.", json_schema_extra=absent_means_unchanged)


class ReplayRequest(RequestBody):
    """Replay takes no field: send no body (or ``{}``)."""


WebhookListQuery = page_query(default=DEFAULT_LIMIT, maximum=MAX_LIMIT, name="WebhookListQuery")


class DeliveryListQuery(WebhookListQuery):  # type: ignore[misc]  # a page_query class
    status: DeliveryStatus | None = Field(None, description="Only deliveries in this status.")
    event_type: EventTypeFilter | None = Field(None, description="Only this event type, or a family (transaction.*).")


# --- responses ---------------------------------------------------------------------------------------


class Webhook(Resource):
    """A webhook; its secret is shown only by create and rotate-secret."""

    id: uuid.UUID
    url: str
    description: str
    event_types: list[SubscribableEventType]
    status: WebhookStatus
    disabled_reason: str | None
    disabled_at: Timestamp | None
    consecutive_failures: int = Field(ge=0, description="Failed attempts in a row; 50 disable the webhook.")
    secret_rotated_at: Timestamp | None
    previous_secret_expires_at: Timestamp | None = Field(
        description="Until then the previous secret also signs; null when no previous secret is valid.")
    last_success_at: Timestamp | None
    last_failure_at: Timestamp | None
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def fields_of(cls, webhook: WebhookRow) -> dict[str, object]:
        grace_ends = webhook.previous_secret_expires_at
        return {
            "id": webhook.id, "url": webhook.url, "description": webhook.description,
            "event_types": list(webhook.event_types), "status": webhook.status,
            "disabled_reason": webhook.disabled_reason, "disabled_at": webhook.disabled_at,
            "consecutive_failures": webhook.consecutive_failures, "secret_rotated_at": webhook.secret_rotated_at,
            "previous_secret_expires_at": grace_ends if grace_ends and grace_ends > clock.now() else None,
            "last_success_at": webhook.last_success_at, "last_failure_at": webhook.last_failure_at,
            "created_at": webhook.created_at, "updated_at": webhook.updated_at,
        }

    @classmethod
    def of(cls, webhook: WebhookRow) -> "Webhook":
        return cls(**cls.fields_of(webhook))


class WebhookWithSecret(Webhook):
    """A webhook with its signing secret: the answer of create and rotate-secret, and the only
    time the secret is shown."""

    secret: str = Field(description="whsec_ followed by the base64 of 24 random bytes (the HMAC key).")

    @classmethod
    def with_secret(cls, webhook: WebhookRow, secret: str) -> "WebhookWithSecret":
        return cls(**cls.fields_of(webhook), secret=secret)


class WebhookList(Page[Webhook]):
    """One page of the workspace's webhooks, oldest first."""

    @classmethod
    def of(cls, page: management.Page) -> "WebhookList":
        return cls(items=[Webhook.of(item) for item in page.items], total=page.total, limit=page.limit,
                   offset=page.offset)


class WebhookDelivery(Resource):
    """A delivery history entry: the last attempt's number, HTTP code, body and error."""

    id: uuid.UUID
    webhook_id: uuid.UUID
    event_id: uuid.UUID
    event_type: EventType
    status: DeliveryStatus
    attempt: int = Field(ge=0, description="Attempts made so far (0: none yet).")
    response_status_code: int | None = Field(description="HTTP status of the last attempt.")
    response_body: str | None = Field(description="First 4 KB of the last attempt's response body.")
    error: str | None = Field(description="Why the last attempt failed.")
    created_at: Timestamp
    last_attempt_at: Timestamp | None
    next_attempt_at: Timestamp | None
    finished_at: Timestamp | None
    replay_count: int = Field(ge=0)

    @classmethod
    def fields_of(cls, delivery: WebhookDeliveryRow) -> dict[str, object]:
        return {
            "id": delivery.id, "webhook_id": delivery.webhook_id,
            "event_id": delivery.event_id,
            "event_type": delivery.event_type, "status": delivery.status, "attempt": delivery.attempt_count,
            "response_status_code": delivery.last_response_status, "response_body": delivery.last_response_body,
            "error": delivery.last_error, "created_at": delivery.created_at,
            "last_attempt_at": delivery.last_attempt_at, "next_attempt_at": delivery.next_attempt_at,
            "finished_at": delivery.finished_at, "replay_count": delivery.replay_count,
        }

    @classmethod
    def of(cls, delivery: WebhookDeliveryRow) -> "WebhookDelivery":
        return cls(**cls.fields_of(delivery))


class WebhookAttempt(Resource):
    attempt: int = Field(ge=1)
    started_at: Timestamp
    duration_ms: int = Field(ge=0)
    response_status_code: int | None
    response_body: str | None = Field(description="First 4 KB of the response body (invalid UTF-8 replaced).")
    error: str | None
    succeeded: bool

    @classmethod
    def of(cls, attempt: WebhookAttemptRow) -> "WebhookAttempt":
        return cls(attempt=attempt.attempt_number, started_at=attempt.started_at, duration_ms=attempt.duration_ms,
                   response_status_code=attempt.response_status, response_body=attempt.response_body,
                   error=attempt.error, succeeded=attempt.succeeded)


class WebhookDeliveryDetail(WebhookDelivery):
    """A delivery with every attempt, oldest first."""

    attempts: list[WebhookAttempt]

    @classmethod
    def with_attempts(cls, delivery: WebhookDeliveryRow, attempts: list[WebhookAttemptRow]) -> "WebhookDeliveryDetail":
        return cls(**cls.fields_of(delivery), attempts=[WebhookAttempt.of(a) for a in attempts])


class WebhookDeliveryList(Page[WebhookDelivery]):
    """One page of a webhook's delivery history, newest first."""

    @classmethod
    def of(cls, page: management.Page) -> "WebhookDeliveryList":
        return cls(items=[WebhookDelivery.of(item) for item in page.items], total=page.total, limit=page.limit,
                   offset=page.offset)


class WebhookTestEvent(Resource):
    """The queued test event and its delivery to this webhook."""

    event_id: uuid.UUID
    event_type: Literal["webhook.test"]
    delivery_id: uuid.UUID

    @classmethod
    def of(cls, event: WebhookEvent, delivery: WebhookDeliveryRow) -> "WebhookTestEvent":
        return cls(event_id=event.id, event_type=event.type, delivery_id=delivery.id)


class WebhookReplay(Resource):
    queued: int = Field(ge=0, description="Deliveries queued again (retrying or failed, created since `since`).")
    since: Timestamp = Field(description="Start of the replay period (7 days back).")

    @classmethod
    def of(cls, result: management.Replay) -> "WebhookReplay":
        return cls(queued=result.queued, since=result.since)
