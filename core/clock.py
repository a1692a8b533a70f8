"""The one injectable clock.

All code asks :func:`now` for the time. Tests install a :class:`FrozenClock` and move it with
:meth:`FrozenClock.advance` to pass 72 hours or 7 days without sleeping.
"""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from typing import Protocol, overload


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone aware (UTC)."""


class SystemClock:
    """Wall-clock time."""

    def now(self) -> datetime:
        return datetime.now(timezone.utc)


class FrozenClock:
    """A clock that moves only when told to; safe to read from several threads."""

    def __init__(self, start: datetime | None = None) -> None:
        start = start or datetime.now(timezone.utc)
        if start.tzinfo is None:
            raise ValueError("FrozenClock needs a timezone-aware start time")
        self._now = start
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            return self._now

    def advance(self, delta: timedelta | None = None, **kwargs: float) -> datetime:
        """Move the clock forward by ``delta`` (or ``timedelta(**kwargs)``) and return the new time."""
        step = delta if delta is not None else timedelta(**kwargs)
        with self._lock:
            self._now += step
            return self._now

    def set(self, moment: datetime) -> None:
        with self._lock:
            self._now = moment


@overload
def rfc3339(moment: datetime) -> str: ...
@overload
def rfc3339(moment: None) -> None: ...
@overload
def rfc3339(moment: datetime | None) -> str | None: ...


def rfc3339(moment: datetime | None) -> str | None:
    """The wire form of a timestamp: RFC 3339 in UTC with a ``Z`` suffix (None stays None)."""
    if moment is None:
        return None
    return moment.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


_clock: Clock = SystemClock()


def now() -> datetime:
    """The current time from the installed clock."""
    return _clock.now()


def get_clock() -> Clock:
    return _clock


def set_clock(clock: Clock) -> Clock:
    """Install ``clock`` for the whole process; returns the previous one."""
    global _clock
    previous, _clock = _clock, clock
    return previous
