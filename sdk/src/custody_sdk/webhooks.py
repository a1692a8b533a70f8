"""Verify the service's webhook deliveries and read them as typed events.

The service signs each delivery per Standard Webhooks (docs/webhooks.md):

- ``webhook-id``: the event id, the same on every attempt (the deduplication key; also sent as
  ``X-Webhook-Event-Id``) and equal to the body's ``id``;
- ``webhook-timestamp``: unix seconds of the attempt;
- ``webhook-signature``: space-separated ``v1,<base64 HMAC-SHA256>`` entries over
  ``"{webhook-id}.{webhook-timestamp}.{body}"``, one per secret that is valid (two for 24 hours
  after a secret rotation).

:class:`WebhookVerifier` accepts a delivery when a ``v1`` entry matches one of the secrets it
holds (give it the old and the new secret while rotating, in any order), the timestamp is within
``tolerance`` of its clock (a replayed capture is refused), and the body is the service's event
envelope whose ``id`` is the ``webhook-id``. It computes signatures with the ``standardwebhooks``
package and compares them in constant time; everything it refuses raises
:class:`WebhookVerificationError` naming the reason, never a secret::

    verifier = WebhookVerifier([os.environ["WEBHOOK_SECRET"]])
    event = verifier.verify(raw_body, request_headers)   # bytes as received, before any parsing
    if event.transaction is not None:
        ...

Verify the raw bytes: a body re-serialized by a framework no longer matches its signature.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, Mapping

from standardwebhooks.webhooks import Webhook

from custody_sdk.errors import CustodyError
from custody_sdk.openapi.models import Transaction

ID_HEADER = "webhook-id"
TIMESTAMP_HEADER = "webhook-timestamp"
SIGNATURE_HEADER = "webhook-signature"
SIGNATURE_VERSION = "v1"
DEFAULT_TOLERANCE = timedelta(minutes=5)
TRANSACTION_EVENTS = "transaction."


class WebhookVerificationError(CustodyError):
    """A delivery that must not be trusted (answer it with a 4xx; the service retries it)."""


@dataclass(frozen=True)
class WebhookEvent:
    """A verified delivery: the envelope ``{type, id, created_at, workspace_id, data}``.

    ``attempted_at`` is this attempt's ``webhook-timestamp``; ``id`` is the same on every
    attempt, so drop an ``id`` already handled (delivery is at least once).
    """

    id: str
    type: str
    created_at: datetime
    workspace_id: uuid.UUID
    data: dict[str, Any] = field(repr=False)
    attempted_at: datetime

    @property
    def transaction(self) -> Transaction | None:
        """The transaction of a ``transaction.*`` event (its ``data``), typed; None otherwise."""
        if not self.type.startswith(TRANSACTION_EVENTS):
            return None
        return Transaction.from_dict(self.data)


def _timestamp(moment: str) -> datetime:
    return datetime.fromisoformat(moment.replace("Z", "+00:00"))


class WebhookVerifier:
    """Checks deliveries against one or more secrets (``whsec_...``); see the module docstring.

    :param secrets: The webhook's secret, or several during a rotation.
    :param tolerance: How far the attempt's timestamp may be from this machine's clock.
    :param clock: Unix seconds.
    """

    def __init__(self, secrets: str | Iterable[str], *, tolerance: timedelta | float = DEFAULT_TOLERANCE,
                 clock: Callable[[], float] = time.time) -> None:
        given = [secrets] if isinstance(secrets, str) else list(secrets)
        if not given:
            raise ValueError("at least one webhook secret is needed")
        try:
            self._signers = [Webhook(secret) for secret in given]
        except Exception:  # the library raises binascii.Error, RuntimeError... for a malformed secret
            raise ValueError("a webhook secret is whsec_ followed by base64") from None
        self._tolerance = tolerance.total_seconds() if isinstance(tolerance, timedelta) else float(tolerance)
        self._clock = clock

    def verify(self, body: bytes | str, headers: Mapping[str, str]) -> WebhookEvent:
        """The event of a delivery whose signature, timestamp and envelope check out; raises
        :class:`WebhookVerificationError` otherwise."""
        lowered = {name.lower(): value for name, value in headers.items()}
        event_id, sent_at, signatures = (lowered.get(ID_HEADER), lowered.get(TIMESTAMP_HEADER),
                                         lowered.get(SIGNATURE_HEADER))
        if not (event_id and sent_at and signatures):
            raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
        try:
            seconds = int(sent_at)
        except ValueError:
            raise WebhookVerificationError("webhook-timestamp is not unix seconds") from None
        if abs(self._clock() - seconds) > self._tolerance:
            raise WebhookVerificationError("webhook-timestamp is outside the tolerance")
        try:
            text = body.decode() if isinstance(body, bytes) else body
        except UnicodeDecodeError:
            raise WebhookVerificationError("the body is not UTF-8") from None
        if not self._signed(event_id, datetime.fromtimestamp(seconds, timezone.utc), text, signatures):
            raise WebhookVerificationError("no signature matches a secret")
        return self._event(event_id, text, seconds)

    def _signed(self, event_id: str, sent_at: datetime, text: str, header: str) -> bool:
        given: list[bytes] = []
        for entry in header.split():
            version, _, value = entry.partition(",")
            if version != SIGNATURE_VERSION:
                continue
            try:
                given.append(base64.b64decode(value, validate=True))
            except (binascii.Error, ValueError):
                continue
        for signer in self._signers:
            expected = base64.b64decode(signer.sign(msg_id=event_id, timestamp=sent_at, data=text).partition(",")[2])
            if any(hmac.compare_digest(expected, candidate) for candidate in given):
                return True
        return False

    @staticmethod
    def _event(event_id: str, text: str, seconds: int) -> WebhookEvent:
        try:
            envelope = json.loads(text)
            event = WebhookEvent(id=str(envelope["id"]), type=str(envelope["type"]),
                                 created_at=_timestamp(envelope["created_at"]),
                                 workspace_id=uuid.UUID(str(envelope["workspace_id"])), data=dict(envelope["data"]),
                                 attempted_at=datetime.fromtimestamp(seconds, timezone.utc))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise WebhookVerificationError("the body is not an event envelope") from None
        if event.id != event_id:
            raise WebhookVerificationError("the body's id is not the webhook-id")
        return event
