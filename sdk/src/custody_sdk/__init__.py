"""Typed async Python client of the Custody Wallet Service.

- :class:`Custody`: the client (signed-token authentication, workspaces, retries, idempotency
  keys, timeouts, typed errors, iterators over paged lists and the change log).
- ``custody_sdk.openapi``: the operations and models generated from the service's OpenAPI
  document (``custody_sdk.openapi.api.<tag>.<operation>``, ``custody_sdk.openapi.models``).
- :class:`WebhookVerifier`: verifies deliveries and returns typed :class:`WebhookEvent` s.
- :class:`AuditLog`: the workspace's audit log, verified against a pinned key (each entry's
  hash, the chain, the signed head, saved checkpoints).
- :class:`BalanceSync`: a local copy of the workspace's balances kept by webhook events, the
  balance snapshot and the change log.

See sdk/README.md.
"""

from custody_sdk.audit import AuditLog, AuditVerificationError, VerifiedLog, trusted_keys, verify_chain, verify_page
from custody_sdk.balance_sync import BalanceSync, LocalBalance
from custody_sdk.client import DEFAULT_TIMEOUT, Custody, Operation, Reply, Result, __version__, items_of
from custody_sdk.credentials import Credentials, CredentialsError
from custody_sdk.errors import (
    BadRequest,
    Conflict,
    ConnectionFailed,
    CursorExpired,
    CustodyApiError,
    CustodyError,
    Forbidden,
    Gone,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    RequestTimeout,
    ServerError,
    Unauthorized,
    UnexpectedResponse,
)
from custody_sdk.retry import NO_RETRIES, RetryPolicy
from custody_sdk.webhooks import WebhookEvent, WebhookVerificationError, WebhookVerifier

__all__ = [
    "AuditLog", "AuditVerificationError", "VerifiedLog", "trusted_keys", "verify_chain", "verify_page",
    "DEFAULT_TIMEOUT", "NO_RETRIES", "BadRequest", "BalanceSync", "Conflict", "ConnectionFailed", "Credentials",
    "CredentialsError", "CursorExpired", "Custody", "CustodyApiError", "CustodyError", "Forbidden", "Gone",
    "LocalBalance", "NotFound", "Operation", "PayloadTooLarge", "RateLimited", "Reply", "RequestTimeout", "Result",
    "RetryPolicy", "ServerError", "Unauthorized", "UnexpectedResponse", "WebhookEvent", "WebhookVerificationError",
    "WebhookVerifier", "__version__", "items_of",
]
