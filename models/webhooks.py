"""Webhooks: subscriptions, the events they receive, one delivery per (event, webhook), its attempts.

- :class:`Webhook`: an HTTPS endpoint of a workspace, its subscribed event types and its signing
  secrets (sealed with :func:`core.sealing.seal`). ``status`` is ``active`` or ``disabled``.
- :class:`WebhookEvent`: the event outbox. A row is written in the same transaction as the
  change it reports; ``payload`` holds the exact JSON bytes every attempt sends.
- :class:`WebhookDelivery`: the state of one event for one webhook: ``pending`` (not attempted
  yet), ``retrying`` (an attempt failed, another is scheduled), ``succeeded`` or ``failed``.
- :class:`WebhookAttempt`: one HTTP attempt of a delivery (the delivery history).

See docs/webhooks.md for the rules (schedule, disabling, replay, signatures).
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock
from models.base import TimestampedModel


class Webhook(TimestampedModel):
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    url = fields.CharField(max_length=2048)
    description = fields.CharField(max_length=255, default="")
    #: Subscribed event types: exact names (``transaction.created``) or a family (``transaction.*``).
    event_types = fields.JSONField(default=list)
    #: ``active`` or ``disabled`` (by 50 consecutive failed attempts, or by the user).
    status = fields.CharField(max_length=10, default="active")
    #: The current ``whsec_`` secret, sealed; it signs every attempt.
    secret_sealed = fields.BinaryField()
    #: The secret replaced by the last rotation, sealed; it also signs until its grace period ends.
    previous_secret_sealed = fields.BinaryField(null=True)
    previous_secret_expires_at = fields.DatetimeField(null=True)
    secret_rotated_at = fields.DatetimeField(null=True)
    #: Failed attempts since the last success (or reactivation); 50 disables the webhook.
    consecutive_failures = fields.IntField(default=0)
    disabled_at = fields.DatetimeField(null=True)
    disabled_reason = fields.CharField(max_length=200, null=True)
    last_success_at = fields.DatetimeField(null=True)
    last_failure_at = fields.DatetimeField(null=True)
    #: Soft delete: a deleted webhook is invisible and sent nothing; its history stays for audit.
    deleted_at = fields.DatetimeField(null=True)

    class Meta:
        table = "webhooks"
        indexes = (("workspace_id", "deleted_at"),)


class WebhookEvent(Model):
    """An event of a workspace; its id is the ``webhook-id`` / ``X-Webhook-Event-Id`` header."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    workspace = fields.ForeignKeyField("models.Workspace", related_name=False, on_delete=fields.RESTRICT)
    workspace_id: uuid.UUID
    type = fields.CharField(max_length=100)
    #: The exact request body (the JSON envelope), identical on every attempt and every webhook.
    payload = fields.TextField()
    #: Set for events addressed to one webhook only (``webhook.test``); None fans out by subscription.
    target_webhook = fields.ForeignKeyField("models.Webhook", related_name=False, null=True,
                                            on_delete=fields.RESTRICT)
    target_webhook_id: uuid.UUID | None
    created_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "webhook_events"
        indexes = (("workspace_id", "created_at"),)


class WebhookDelivery(TimestampedModel):
    workspace_id = fields.UUIDField()
    webhook = fields.ForeignKeyField("models.Webhook", related_name=False, on_delete=fields.RESTRICT)
    webhook_id: uuid.UUID
    event = fields.ForeignKeyField("models.WebhookEvent", related_name=False, on_delete=fields.RESTRICT)
    event_id: uuid.UUID
    #: Copy of the event type, for filtering the history without a join.
    event_type = fields.CharField(max_length=100)
    #: pending | retrying | succeeded | failed
    status = fields.CharField(max_length=10, default="pending")
    #: Attempts made so far (the number of the last attempt).
    attempt_count = fields.IntField(default=0)
    #: Start of the current 24 hour retry window: the first attempt (or the first after a replay).
    window_started_at = fields.DatetimeField(null=True)
    last_attempt_at = fields.DatetimeField(null=True)
    #: When the next attempt is due (pending / retrying); None once final.
    next_attempt_at = fields.DatetimeField(null=True)
    #: When a delivery message was last sent for it (or is due to arrive); the sweep's staleness mark.
    enqueued_at = fields.DatetimeField(null=True)
    #: An attempt is in flight until then (a claim; bounded concurrency counts live claims).
    lease_expires_at = fields.DatetimeField(null=True)
    #: Set while the delivery waits for a free slot of its webhook's concurrency limit.
    parked_at = fields.DatetimeField(null=True)
    finished_at = fields.DatetimeField(null=True)
    last_response_status = fields.IntField(null=True)
    last_response_body = fields.TextField(null=True)
    last_error = fields.TextField(null=True)
    replay_count = fields.IntField(default=0)

    class Meta:
        table = "webhook_deliveries"
        unique_together = (("event", "webhook"),)
        indexes = (("webhook_id", "created_at"), ("webhook_id", "lease_expires_at"), ("webhook_id", "parked_at"),
                   ("status", "next_attempt_at"))


class WebhookAttempt(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    delivery = fields.ForeignKeyField("models.WebhookDelivery", related_name=False, on_delete=fields.CASCADE)
    delivery_id: uuid.UUID
    attempt_number = fields.IntField()
    started_at = fields.DatetimeField()
    duration_ms = fields.IntField()
    #: HTTP status of the response; None when no response came (timeout, refused, DNS, TLS).
    response_status = fields.IntField(null=True)
    #: The first 4 KB of the response body (decoded as UTF-8, invalid bytes replaced).
    response_body = fields.TextField(null=True)
    error = fields.TextField(null=True)
    succeeded = fields.BooleanField()

    class Meta:
        table = "webhook_attempts"
        unique_together = (("delivery", "attempt_number"),)
