"""Signatures per Standard Webhooks, checked with the standardwebhooks package (a receiver's view)."""

from __future__ import annotations

import base64

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from domain.webhooks import signatures as signing


def test_secret_is_whsec_and_24_random_bytes():
    secret = signing.generate_secret()
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret[len("whsec_"):])) == 24
    assert signing.generate_secret() != secret


def test_signature_matches_the_standard_webhooks_reference_vector():
    # The example of the Standard Webhooks specification.
    signature = signing.sign(secret="whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", msg_id="msg_p5jXN8AQM9LWM0D4loKWxJek",
                             timestamp=1614265330, body=b'{"test": 2432232314}')
    assert signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_headers_verify_with_the_standardwebhooks_package_for_each_valid_secret():
    import time

    old, new, other = signing.generate_secret(), signing.generate_secret(), signing.generate_secret()
    body = b'{"type":"webhook.test","id":"e1","data":{}}'
    headers = signing.delivery_headers(event_id="e1", timestamp=int(time.time()), body=body, secrets=[new, old])
    assert headers["webhook-id"] == headers["X-Webhook-Event-Id"] == "e1"
    assert headers["Content-Type"] == "application/json"
    assert len(headers["webhook-signature"].split(" ")) == 2
    # A receiver holding either secret accepts; one holding another secret refuses.
    assert Webhook(new).verify(body, headers) == {"type": "webhook.test", "id": "e1", "data": {}}
    assert Webhook(old).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(other).verify(body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(new).verify(body + b" ", headers)
