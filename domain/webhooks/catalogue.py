"""The catalogue of webhook events, statuses and limits: what a webhook can subscribe to.

Pure definitions and the parsing of subscription fields; no database. docs/webhooks.md has the
whole design.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from domain.errors import NotFound, ValidationFailed, field_error

TRANSACTION_CREATED = "transaction.created"
TRANSACTION_UPDATED = "transaction.updated"
WEBHOOK_TEST = "webhook.test"
#: Security events: what the workspace's administrators are told of (domain/notifications.py).
BACKUP_STARTED = "backup.started"
BACKUP_FILE_DOWNLOADED = "backup.file_downloaded"
WORKSPACE_OWNER_CHANGED = "workspace.owner_changed"

#: Every event type the service emits, with what it reports (docs/webhooks.md).
EVENT_TYPES: dict[str, str] = {
    TRANSACTION_CREATED: "a withdrawal was created or a deposit was detected",
    TRANSACTION_UPDATED: "a transaction changed status, confirmations or balances",
    WEBHOOK_TEST: "a test event sent on request to one webhook (POST .../test)",
    BACKUP_STARTED: "someone started a backup: an export of every key share of the workspace",
    BACKUP_FILE_DOWNLOADED: "someone downloaded the workspace's backup file",
    WORKSPACE_OWNER_CHANGED: "an ownership transfer completed: the workspace has a new owner",
}
#: What a webhook may subscribe to: exact types and whole families.
SUBSCRIBABLE_TYPES = frozenset({TRANSACTION_CREATED, TRANSACTION_UPDATED, BACKUP_STARTED, BACKUP_FILE_DOWNLOADED,
                                WORKSPACE_OWNER_CHANGED})
SUBSCRIBABLE_FAMILIES = frozenset({"transaction.*", "backup.*", "workspace.*"})

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
#: Scheduled actor: re-enqueue deliveries whose message was lost (every SWEEP_INTERVAL_SECONDS).
SWEEP = "webhooks.sweep"
SWEEP_INTERVAL_SECONDS = 30

ERROR_WEBHOOK_DISABLED = "webhook disabled"
ERROR_WEBHOOK_DELETED = "webhook deleted"


def webhook_not_found() -> NotFound:
    return NotFound("webhook not found", code="WEBHOOK_NOT_FOUND")


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
