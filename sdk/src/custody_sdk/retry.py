"""Which calls are retried, on what, and how long to wait in between.

A call is retried only when repeating it cannot do a thing twice:

- **Idempotent methods** (GET, HEAD, OPTIONS, PUT, DELETE). A DELETE whose first answer was lost
  answers its repeat with a 404: the object is gone either way.
- **A POST that carries an idempotency key** (``X-Idempotency-Key``; ``Custody.call(...,
  idempotency_key=...)`` sets it). Every attempt sends the same key, and the service answers a
  repeat of a request it already carried out with 409 and the object it created, which the SDK
  returns as the call's success (``Result.replayed``). A POST without a key is never retried: a
  lost answer cannot tell whether the service acted.

They are retried on an answer that says "try again" (429 and every 5xx) and on a failure to get
any answer (connection refused or reset, DNS, TLS, timeouts). The wait before attempt *n + 1*
is ``min(max_delay, initial_delay * 2**(n-1))`` with "equal jitter" (a uniform draw between half
of it and all of it), so clients that failed together do not come back together; a
``Retry-After`` header (seconds) is honoured when it asks for longer, up to ``max_delay``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import httpx

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
IDEMPOTENCY_HEADER = "X-Idempotency-Key"
RETRY_AFTER_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class RetryPolicy:
    """How many attempts a retryable call gets and how long it waits between them."""

    #: Attempts in all, the first included (1 turns retries off).
    max_attempts: int = 4
    initial_delay: float = 0.25
    max_delay: float = 8.0
    methods: frozenset[str] = IDEMPOTENT_METHODS

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts counts the first attempt: it is at least 1")
        if self.initial_delay < 0 or self.max_delay < self.initial_delay:
            raise ValueError("delays must satisfy 0 <= initial_delay <= max_delay")

    def allows(self, request: httpx.Request) -> bool:
        """Whether ``request`` may be sent again after a failure (see the module docstring)."""
        if request.method in self.methods:
            return True
        return request.method == "POST" and bool(request.headers.get(IDEMPOTENCY_HEADER))

    @staticmethod
    def retries_status(status: int) -> bool:
        """Whether an answer with ``status`` asks to try again."""
        return status == 429 or status >= 500

    def delay(self, attempt: int, *, retry_after: float | None = None, rng: random.Random | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        ceiling = min(self.max_delay, self.initial_delay * 2 ** (attempt - 1))
        wait = (rng or random).uniform(ceiling / 2, ceiling)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_delay))
        return wait


#: For callers that handle failures themselves.
NO_RETRIES = RetryPolicy(max_attempts=1)


def retry_after_seconds(response: httpx.Response) -> float | None:
    """The ``Retry-After`` of a 429/503 answer in seconds (the delta-seconds form only)."""
    if response.status_code not in RETRY_AFTER_STATUSES:
        return None
    value = response.headers.get("retry-after", "").strip()
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if seconds >= 0 else None
