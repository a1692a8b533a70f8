from typing import Literal

WebhookTestEventEventType = Literal["webhook.test"]

WEBHOOK_TEST_EVENT_EVENT_TYPE_VALUES: set[WebhookTestEventEventType] = {
    "webhook.test",
}


def check_webhook_test_event_event_type(value: str) -> WebhookTestEventEventType:
    if value in WEBHOOK_TEST_EVENT_EVENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_TEST_EVENT_EVENT_TYPE_VALUES!r}")
