from typing import Literal

WebhookWithSecretStatus = Literal["active", "disabled"]

WEBHOOK_WITH_SECRET_STATUS_VALUES: set[WebhookWithSecretStatus] = {
    "active",
    "disabled",
}


def check_webhook_with_secret_status(value: str) -> WebhookWithSecretStatus:
    if value in WEBHOOK_WITH_SECRET_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_WITH_SECRET_STATUS_VALUES!r}")
