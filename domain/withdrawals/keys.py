"""The three request headers of POST /transaction: idempotency, explicit retries, UTXO intents.

``X-Idempotency-Key`` (any network)
    Names one request, scoped to the workspace, kept for good (the key is stored on the
    transaction it created). A repeat with the same key and the same request answers 409 with
    the existing transaction as the body and creates nothing; the same key with a different
    request (body, X-Attempt-Key or X-Utxo-Intent-Key) is refused with 422
    IDEMPOTENCY_KEY_REUSED. A request that was refused (4xx) left nothing behind, so its key is
    free again. Concurrent requests with one key are serialized on a transaction-scoped advisory
    lock of (workspace, key): exactly one creates, the others answer 409.

``X-Attempt-Key`` (any network)
    Names one *payment* across its attempts. The first request with a key is attempt 1. A later
    request with the key is an explicit retry: it is accepted only when the previous attempt
    ended without paying (failed, declined, cancelled or expired) and the retry is equivalent
    (same source wallet, destination address and amount; the fee may change): it becomes
    attempt n + 1 with ``retry_of`` naming the previous one. At most one attempt per key is
    live: a retry while the previous attempt is live is 409 ATTEMPT_IN_PROGRESS; after an
    attempt finished (the payment was made) every retry is 409 ATTEMPT_ALREADY_FINISHED; a
    retry that is not equivalent is 422 ATTEMPT_NOT_EQUIVALENT.

``X-Utxo-Intent-Key`` (UTXO networks)
    Declares a *new* payment on purpose. On a UTXO network a payment whose source wallet,
    destination address and amount equal those of another payment created within
    ``WITHDRAWAL_DUPLICATE_WINDOW_SECONDS`` (default 24 h) that has not ended unsuccessfully is
    refused as a probable duplicate (409 PROBABLE_DUPLICATE) unless it carries an intent key.
    An intent key is used once per workspace (409 UTXO_INTENT_KEY_USED for a second payment
    with it). On a gas network the header is refused (400 UTXO_INTENT_KEY_NOT_APPLICABLE).

Header values: 1 to 100 printable ASCII characters (no spaces); anything else is 400 with the
header's own code (INVALID_IDEMPOTENCY_KEY, INVALID_ATTEMPT_KEY, INVALID_UTXO_INTENT_KEY).
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from tortoise import connections

from core import clock
from domain import transaction_statuses as statuses
from domain.errors import Conflict, DomainError, ValidationFailed
from models.transactions import Transaction

#: 1 to 100 visible ASCII characters: UUIDs, ULIDs, "order-123:retry" and the like.
KEY_PATTERN = r"^[\x21-\x7e]{1,100}$"
_KEY = re.compile(KEY_PATTERN)

IDEMPOTENCY_HEADER = "X-Idempotency-Key"
ATTEMPT_HEADER = "X-Attempt-Key"
INTENT_HEADER = "X-Utxo-Intent-Key"


class IdempotencyKeyReused(DomainError):
    status = 422
    code = "IDEMPOTENCY_KEY_REUSED"


class AttemptInProgress(Conflict):
    code = "ATTEMPT_IN_PROGRESS"


class AttemptAlreadyFinished(Conflict):
    code = "ATTEMPT_ALREADY_FINISHED"


class AttemptNotEquivalent(DomainError):
    status = 422
    code = "ATTEMPT_NOT_EQUIVALENT"


class IntentKeyUsed(Conflict):
    code = "UTXO_INTENT_KEY_USED"


class ProbableDuplicate(Conflict):
    code = "PROBABLE_DUPLICATE"


@dataclass(frozen=True)
class RequestKeys:
    idempotency_key: str | None = None
    attempt_key: str | None = None
    utxo_intent_key: str | None = None


def _key(value: str | None, *, header: str, code: str) -> str | None:
    if value is None:
        return None
    if not _KEY.match(value):
        raise ValidationFailed(f"{header} must be 1 to 100 printable ASCII characters without spaces", code=code,
                               details={"field": header, "reason": "must be 1 to 100 printable ASCII characters"})
    return value


def parse_keys(*, idempotency_key: str | None, attempt_key: str | None, utxo_intent_key: str | None) -> RequestKeys:
    """The three header values, each checked (400 with the header's own code)."""
    return RequestKeys(
        idempotency_key=_key(idempotency_key, header=IDEMPOTENCY_HEADER, code="INVALID_IDEMPOTENCY_KEY"),
        attempt_key=_key(attempt_key, header=ATTEMPT_HEADER, code="INVALID_ATTEMPT_KEY"),
        utxo_intent_key=_key(utxo_intent_key, header=INTENT_HEADER, code="INVALID_UTXO_INTENT_KEY"),
    )


def fingerprint(request: Any, keys: RequestKeys) -> str:
    """SHA-256 of the request as received (its fields and the attempt and intent keys)."""
    fields = {name: (str(value) if value is not None else None) for name, value in asdict(request).items()}
    document = {"request": fields, "attempt_key": keys.attempt_key, "utxo_intent_key": keys.utxo_intent_key}
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def lock_key(workspace_id: uuid.UUID, kind: str, key: str) -> None:
    """Serialize, until this transaction ends, every request of the workspace with this key."""
    await connections.get("default").execute_query(
        "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [f"withdrawal:{kind}:{workspace_id}:{key}"])


async def replayed(*, workspace_id: uuid.UUID, keys: RequestKeys, request_hash: str) -> Transaction | None:
    """The transaction an earlier request with this idempotency key created (None: a new key).

    Raises IdempotencyKeyReused when that request was a different one.
    """
    if keys.idempotency_key is None:
        return None
    await lock_key(workspace_id, "idempotency", keys.idempotency_key)
    existing = await Transaction.get_or_none(workspace_id=workspace_id, idempotency_key=keys.idempotency_key)
    if existing is None:
        return None
    if existing.request_hash != request_hash:
        raise IdempotencyKeyReused(
            f"{IDEMPOTENCY_HEADER} was already used for a different request in this workspace",
            details={"transaction_id": str(existing.id), "header": IDEMPOTENCY_HEADER})
    return existing


@dataclass(frozen=True)
class Attempt:
    number: int | None
    retry_of: Transaction | None


async def attempt_of(*, workspace_id: uuid.UUID, keys: RequestKeys, wallet_id: uuid.UUID, to_address: str,
                     amount: int) -> Attempt:
    """Which attempt of its payment this request is (see the module docstring)."""
    if keys.attempt_key is None:
        return Attempt(None, None)
    await lock_key(workspace_id, "attempt", keys.attempt_key)
    previous = await Transaction.filter(workspace_id=workspace_id, attempt_key=keys.attempt_key).order_by(
        "-attempt_number").first()
    if previous is None:
        return Attempt(1, None)
    details = {"transaction_id": str(previous.id), "status": previous.status, "header": ATTEMPT_HEADER}
    if previous.status not in statuses.FINAL:
        raise AttemptInProgress("the previous attempt with this X-Attempt-Key is still live: wait for it to end",
                                details=details)
    if previous.status == statuses.FINISHED:
        raise AttemptAlreadyFinished("an attempt with this X-Attempt-Key already made the payment", details=details)
    differs = [name for name, same in (("source_wallet_id", previous.wallet_id == wallet_id),
                                       ("target_address", previous.to_address == to_address),
                                       ("amount", int(previous.amount) == amount)) if not same]
    if differs:
        raise AttemptNotEquivalent("a retry must pay the same amount from the same wallet to the same address",
                                   details={**details, "differs": differs})
    return Attempt(int(previous.attempt_number or 1) + 1, previous)


async def check_intent(*, workspace_id: uuid.UUID, keys: RequestKeys) -> None:
    """An intent key names one payment per workspace."""
    if keys.utxo_intent_key is None:
        return
    await lock_key(workspace_id, "intent", keys.utxo_intent_key)
    used = await Transaction.get_or_none(workspace_id=workspace_id, utxo_intent_key=keys.utxo_intent_key)
    if used is not None:
        raise IntentKeyUsed(f"{INTENT_HEADER} was already used for a payment in this workspace",
                            details={"transaction_id": str(used.id), "header": INTENT_HEADER})


async def check_duplicates(*, workspace_id: uuid.UUID, keys: RequestKeys, wallet_id: uuid.UUID, to_address: str,
                           amount: int, window_seconds: int) -> None:
    """UTXO networks: refuse a probable duplicate (call with the source wallet locked)."""
    if keys.utxo_intent_key is not None or window_seconds <= 0:
        return
    since = clock.now() - timedelta(seconds=window_seconds)
    same = await Transaction.filter(workspace_id=workspace_id, wallet_id=wallet_id, direction="withdrawal",
                                    to_address=to_address, amount=amount, created_at__gte=since).exclude(
        status__in=list(statuses.UNSUCCESSFUL)).order_by("-created_at").first()
    if same is not None:
        raise ProbableDuplicate(
            "a payment with the same source, destination and amount was made recently: send X-Utxo-Intent-Key "
            "with a new value to make another one on purpose",
            details={"transaction_id": str(same.id), "window_seconds": window_seconds, "header": INTENT_HEADER})
