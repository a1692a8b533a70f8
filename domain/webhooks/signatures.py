"""Webhook signatures per the Standard Webhooks specification (https://www.standardwebhooks.com).

A secret is ``whsec_`` + base64 of 24 random bytes; the HMAC key is those bytes. Each attempt
carries:

- ``webhook-id``: the event id (the same on every attempt; also sent as ``X-Webhook-Event-Id``);
- ``webhook-timestamp``: unix seconds of the attempt;
- ``webhook-signature``: space-separated ``v1,<base64 HMAC-SHA256>`` entries over
  ``"{webhook-id}.{webhook-timestamp}.{body}"``, one per secret that is currently valid (two
  during the grace period after a rotation), so receivers accept either secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets as _secrets
from typing import Iterable

SECRET_PREFIX = "whsec_"
SECRET_BYTES = 24
USER_AGENT = "custody-wallet-service-webhooks/1.0"
SIGNATURE_VERSION = "v1"


def generate_secret() -> str:
    """A fresh signing secret, ``whsec_`` + base64(24 random bytes)."""
    return SECRET_PREFIX + base64.b64encode(_secrets.token_bytes(SECRET_BYTES)).decode()


def secret_key(secret: str) -> bytes:
    """The HMAC key of a ``whsec_`` secret."""
    if not secret.startswith(SECRET_PREFIX):
        raise ValueError("webhook secrets start with whsec_")
    try:
        return base64.b64decode(secret[len(SECRET_PREFIX):], validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("webhook secret is not valid base64") from exc


def sign(*, secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """One ``v1,<base64>`` signature of ``body`` for message ``msg_id`` sent at ``timestamp``."""
    signed = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(secret_key(secret), signed, hashlib.sha256).digest()
    return f"{SIGNATURE_VERSION},{base64.b64encode(digest).decode()}"


def signature_header(*, secrets: Iterable[str], msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` value: one signature per valid secret, separated by spaces."""
    return " ".join(sign(secret=s, msg_id=msg_id, timestamp=timestamp, body=body) for s in secrets)


def delivery_headers(*, event_id: str, timestamp: int, body: bytes, secrets: Iterable[str]) -> dict[str, str]:
    """Every header of one delivery attempt."""
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "webhook-id": event_id,
        "X-Webhook-Event-Id": event_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": signature_header(secrets=secrets, msg_id=event_id, timestamp=timestamp, body=body),
    }
