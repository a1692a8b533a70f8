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
#: A withdrawal reached a final status: one event type per final status (docs/withdrawals.md).
TRANSACTION_FINISHED = "transaction.finished"
TRANSACTION_FAILED = "transaction.failed"
TRANSACTION_DECLINED = "transaction.declined"
TRANSACTION_CANCELLED = "transaction.cancelled"
TRANSACTION_EXPIRED = "transaction.expired"
#: An approver voted on a withdrawal awaiting approvals (domain/transaction_approvals.py).
TRANSACTION_APPROVAL_VOTED = "transaction.approval_voted"
WEBHOOK_TEST = "webhook.test"
#: Security events: what the workspace's administrators are told of (domain/notifications.py).
BACKUP_STARTED = "backup.started"
BACKUP_FILE_DOWNLOADED = "backup.file_downloaded"
WORKSPACE_OWNER_CHANGED = "workspace.owner_changed"
#: The gas station (docs/gas-station.md): a station asset's daily refuel budget is used up; the
#: station's own balance of a base asset cannot pay a full refuel.
GAS_STATION_BUDGET_REACHED = "gas_station.budget_reached"
GAS_STATION_LOW_BALANCE = "gas_station.low_balance"
#: Change approvals (domain/change_approvals/notify.py): a request's life, one type per step.
CHANGE_APPROVAL_EVENTS: dict[str, str] = {
    "change_approval.created": "a gated change was registered as a change approval request (PENDING)",
    "change_approval.voted": "an approver approved or rejected a change approval request",
    "change_approval.approved": "a change approval request has its confirmations; the change is being applied",
    "change_approval.executed": "an approved change was applied",
    "change_approval.failed": "an approved change could not be applied (the reason is in the event)",
    "change_approval.rejected": "a change approval request can no longer reach its threshold",
    "change_approval.expired": "a change approval request ran out of time (72 hours)",
    "change_approval.cancelled": "a change approval request was cancelled",
}
#: AML screening (docs/aml.md): a result and its decision, a provider's later update, a release.
AML_SCREENED = "aml.screened"
AML_UPDATED = "aml.updated"
AML_RELEASED = "aml.released"

#: Every event type the service emits, with what it reports (docs/webhooks.md).
EVENT_TYPES: dict[str, str] = {
    TRANSACTION_CREATED: "a withdrawal was created or a deposit was detected",
    TRANSACTION_UPDATED: "a withdrawal moved on without ending: a new status, confirmations, a freeze or unfreeze",
    TRANSACTION_FINISHED: "a withdrawal is final on the network: the amount left the wallet",
    TRANSACTION_FAILED: "a withdrawal failed (error_code says why); what it held is released",
    TRANSACTION_DECLINED: "a withdrawal was declined by a check or an approver; what it held is released",
    TRANSACTION_CANCELLED: "a withdrawal was cancelled by its creator before signing; what it held is released",
    TRANSACTION_EXPIRED: "a withdrawal was not signing in time; what it held is released",
    TRANSACTION_APPROVAL_VOTED: "an approver voted on a withdrawal awaiting approvals (the transaction and the vote)",
    WEBHOOK_TEST: "a test event sent on request to one webhook (POST .../test)",
    BACKUP_STARTED: "someone started a backup: an export of every key share of the workspace",
    BACKUP_FILE_DOWNLOADED: "someone downloaded the workspace's backup file",
    WORKSPACE_OWNER_CHANGED: "an ownership transfer completed: the workspace has a new owner",
    GAS_STATION_BUDGET_REACHED: "a gas station refuel was skipped: it would take the asset's total sent in the "
                                "last 24 hours above its daily_budget (once per 24 hours and asset)",
    GAS_STATION_LOW_BALANCE: "the gas station's own balance of a base asset cannot pay a full refuel (once until "
                             "it recovers)",
    **CHANGE_APPROVAL_EVENTS,
    AML_SCREENED: "a transfer was screened (or bypassed): the screening record with its risk and the action taken",
    AML_UPDATED: "the provider changed a screened transfer's risk (re-screening); no money moved",
    AML_RELEASED: "a deposit frozen by AML was released: its amount is available",
}
#: The event type of a withdrawal that reaches each final status.
FINAL_STATUS_EVENTS: dict[str, str] = {
    "finished": TRANSACTION_FINISHED, "failed": TRANSACTION_FAILED, "declined": TRANSACTION_DECLINED,
    "cancelled": TRANSACTION_CANCELLED, "expired": TRANSACTION_EXPIRED,
}
#: What a webhook may subscribe to: exact types and whole families.
SUBSCRIBABLE_TYPES = frozenset({TRANSACTION_CREATED, TRANSACTION_UPDATED, TRANSACTION_APPROVAL_VOTED,
                                *FINAL_STATUS_EVENTS.values(),
                                BACKUP_STARTED, BACKUP_FILE_DOWNLOADED, WORKSPACE_OWNER_CHANGED,
                                GAS_STATION_BUDGET_REACHED, GAS_STATION_LOW_BALANCE,
                                *CHANGE_APPROVAL_EVENTS, AML_SCREENED, AML_UPDATED, AML_RELEASED})
SUBSCRIBABLE_FAMILIES = frozenset({"transaction.*", "backup.*", "workspace.*", "gas_station.*",
                                   "change_approval.*", "aml.*"})

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
#: Fan-out commands one ``webhooks.fan_out`` run takes at once (more wake another worker).
FAN_OUT_BATCH = 500
#: How long one drain of a webhook goes on before it hands the rest to a ``webhooks.drain`` message
#: (so one busy webhook cannot hold a worker thread for ever).
DRAIN_MAX_SECONDS = 5.0
#: The history's text of an attempt claimed but not (yet) recorded: in flight, or the worker
#: stopped between sending and recording. Every attempt is written before its request is sent.
NO_OUTCOME = "no outcome recorded: in flight, or the worker stopped before recording it"

# --- actors (declared in actors/webhooks.py) --------------------------------------------------

#: Outbox command: create the deliveries of one event and enqueue them.
FAN_OUT = "webhooks.fan_out"
#: Outbox command: enqueue every due delivery of one webhook (after a replay).
ENQUEUE_DUE = "webhooks.enqueue_due"
#: Plain actor ``deliver(delivery_id, attempt)``: one attempt; queue ``webhooks``.
DELIVER = "webhooks.deliver"
#: Plain actor ``drain(webhook_id)``: send a webhook's due deliveries in batches.
DRAIN = "webhooks.drain"
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
