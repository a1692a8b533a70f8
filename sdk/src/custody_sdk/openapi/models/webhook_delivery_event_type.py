from typing import Literal

WebhookDeliveryEventType = Literal[
    "backup.file_downloaded",
    "backup.started",
    "transaction.approval_voted",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
    "webhook.test",
    "workspace.owner_changed",
]

WEBHOOK_DELIVERY_EVENT_TYPE_VALUES: set[WebhookDeliveryEventType] = {
    "backup.file_downloaded",
    "backup.started",
    "transaction.approval_voted",
    "transaction.cancelled",
    "transaction.created",
    "transaction.declined",
    "transaction.expired",
    "transaction.failed",
    "transaction.finished",
    "transaction.updated",
    "webhook.test",
    "workspace.owner_changed",
}


def check_webhook_delivery_event_type(value: str) -> WebhookDeliveryEventType:
    if value in WEBHOOK_DELIVERY_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_DELIVERY_EVENT_TYPE_VALUES!r}")
