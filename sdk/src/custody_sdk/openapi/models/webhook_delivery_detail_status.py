from typing import Literal

WebhookDeliveryDetailStatus = Literal["failed", "pending", "retrying", "succeeded"]

WEBHOOK_DELIVERY_DETAIL_STATUS_VALUES: set[WebhookDeliveryDetailStatus] = {
    "failed",
    "pending",
    "retrying",
    "succeeded",
}


def check_webhook_delivery_detail_status(value: str) -> WebhookDeliveryDetailStatus:
    if value in WEBHOOK_DELIVERY_DETAIL_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_DELIVERY_DETAIL_STATUS_VALUES!r}")
