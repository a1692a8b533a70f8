"""The retry schedule: 30 s doubling to a 2 hour cap, ±20% jitter, a 24 hour window."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

from domain.webhooks import schedule

T0 = datetime(2030, 1, 1, tzinfo=timezone.utc)


def test_base_intervals_follow_the_spec_table():
    # Attempt: 1 → 30 s, 2 → 1 min, ... 8 → 1 h 4 min, 9 and later → 2 h
    expected = [30, 60, 120, 240, 480, 960, 1920, 3840, 7200, 7200, 7200]
    assert [schedule.base_interval(n).total_seconds() for n in range(1, 12)] == expected
    assert schedule.base_interval(10_000) == timedelta(hours=2)
    with pytest.raises(ValueError):
        schedule.base_interval(0)


@pytest.mark.parametrize("attempt", range(1, 13))
def test_jitter_is_uniform_within_plus_minus_twenty_percent(attempt):
    rng = random.Random(attempt)
    low, high = schedule.jitter_bounds(attempt)
    samples = [schedule.retry_interval(attempt, rng=rng) for _ in range(2000)]
    assert all(low <= s <= high for s in samples)
    base = schedule.base_interval(attempt).total_seconds()
    # Spread over the whole band, not a constant offset: both ends and the middle are hit.
    assert min(samples).total_seconds() < base * 0.82 and max(samples).total_seconds() > base * 1.18
    mean = sum(s.total_seconds() for s in samples) / len(samples)
    assert abs(mean - base) < base * 0.02


def test_no_retry_is_scheduled_after_the_24_hour_window():
    rng = random.Random(7)
    window_start = at = T0
    attempts = [at]
    while (nxt := schedule.next_attempt_at(attempt=len(attempts), failed_at=at, window_started_at=window_start,
                                           rng=rng)) is not None:
        attempts.append(nxt)
        at = nxt
    assert attempts[-1] <= window_start + timedelta(hours=24)
    # The first 8 retries take about 2 h 7 min; then one every ~2 hours until the window closes.
    assert 17 <= len(attempts) <= 22


def test_a_retry_exactly_at_the_window_end_is_still_made_but_not_later():
    fixed = random.Random(0)
    fixed.uniform = lambda a, b: 1.0  # type: ignore[method-assign]  # no jitter
    end = T0 + schedule.RETRY_WINDOW
    assert schedule.next_attempt_at(attempt=9, failed_at=end - timedelta(hours=2), window_started_at=T0,
                                    rng=fixed) == end
    assert schedule.next_attempt_at(attempt=9, failed_at=end - timedelta(hours=2) + timedelta(seconds=1),
                                    window_started_at=T0, rng=fixed) is None
