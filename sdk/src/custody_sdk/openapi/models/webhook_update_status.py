from typing import Literal

WebhookUpdateStatus = Literal["active", "disabled"]

WEBHOOK_UPDATE_STATUS_VALUES: set[WebhookUpdateStatus] = {
    "active",
    "disabled",
}


def check_webhook_update_status(value: str) -> WebhookUpdateStatus:
    if value in WEBHOOK_UPDATE_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_UPDATE_STATUS_VALUES!r}")
