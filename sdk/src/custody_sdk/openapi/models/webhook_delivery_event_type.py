from typing import Literal

WebhookDeliveryEventType = Literal[
    "aml.released",
    "aml.screened",
    "aml.updated",
    "backup.file_downloaded",
    "backup.started",
    "change_approval.approved",
    "change_approval.cancelled",
    "change_approval.created",
    "change_approval.executed",
    "change_approval.expired",
    "change_approval.failed",
    "change_approval.rejected",
    "change_approval.voted",
    "gas_station.budget_reached",
    "gas_station.low_balance",
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
    "aml.released",
    "aml.screened",
    "aml.updated",
    "backup.file_downloaded",
    "backup.started",
    "change_approval.approved",
    "change_approval.cancelled",
    "change_approval.created",
    "change_approval.executed",
    "change_approval.expired",
    "change_approval.failed",
    "change_approval.rejected",
    "change_approval.voted",
    "gas_station.budget_reached",
    "gas_station.low_balance",
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
