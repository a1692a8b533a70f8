"""Webhook delivery timing rules (pure functions; the numbers are the spec's Limits).

- Retry interval after failed attempt ``n`` (1-based): 30 s doubled each attempt
  (30 s, 1 min, 2 min, ... 1 h 4 min), capped at 2 hours, times a uniform random factor in
  [0.8, 1.2] (jitter, so that receivers coming back up are not hit by synchronized retries).
- Retry window: 24 hours from the first attempt of the delivery (or from the first attempt after a
  replay). No attempt is scheduled after the window closes: when the next retry would fall after
  it, the delivery fails right after its last attempt.
- A webhook is disabled after 50 consecutive failed attempts; replay looks back 7 days.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

FIRST_RETRY_INTERVAL = timedelta(seconds=30)
MAX_RETRY_INTERVAL = timedelta(hours=2)
#: Uniform jitter: the interval is multiplied by a factor in [1 - JITTER, 1 + JITTER].
JITTER = 0.2
RETRY_WINDOW = timedelta(hours=24)
DISABLE_AFTER_CONSECUTIVE_FAILURES = 50
REPLAY_PERIOD = timedelta(days=7)

# 30 s * 2**8 = 2 h 8 min already exceeds the cap; larger exponents change nothing.
_MAX_DOUBLINGS = 8


def base_interval(attempt: int) -> timedelta:
    """The interval before the retry that follows failed attempt ``attempt``, without jitter."""
    if attempt < 1:
        raise ValueError(f"attempt numbers start at 1, got {attempt}")
    return min(FIRST_RETRY_INTERVAL * 2 ** min(attempt - 1, _MAX_DOUBLINGS), MAX_RETRY_INTERVAL)


def jitter_bounds(attempt: int) -> tuple[timedelta, timedelta]:
    """The smallest and largest interval :func:`retry_interval` can return for ``attempt``."""
    base = base_interval(attempt)
    return base * (1 - JITTER), base * (1 + JITTER)


def retry_interval(attempt: int, *, rng: random.Random | None = None) -> timedelta:
    """The jittered interval before the retry that follows failed attempt ``attempt``."""
    factor = (rng or random).uniform(1 - JITTER, 1 + JITTER)
    return base_interval(attempt) * factor


def next_attempt_at(
    *, attempt: int, failed_at: datetime, window_started_at: datetime, rng: random.Random | None = None
) -> datetime | None:
    """When to retry after failed attempt ``attempt``; None when the retry window is exhausted."""
    candidate = failed_at + retry_interval(attempt, rng=rng)
    if candidate > window_started_at + RETRY_WINDOW:
        return None
    return candidate
