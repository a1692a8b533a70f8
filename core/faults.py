"""Crash points: named places where a process can be told to die, to prove recovery.

A crash point is one line in the code at a moment that matters (for example between submitting
a signed withdrawal and recording that it was submitted). When its name is in the setting
``CUSTODY_CRASH_POINTS``, the process kills itself there with SIGKILL: no ``finally``, no
rollback message, no graceful shutdown, exactly like a machine losing power. The settings refuse
crash points in production; elsewhere the check is one tuple lookup.
"""

from __future__ import annotations

import logging
import os
import signal

from core.settings import get_settings

logger = logging.getLogger(__name__)


def crash_point(name: str) -> None:
    """Die here (SIGKILL) when ``name`` is among the configured crash points."""
    if name in get_settings().crash_points:
        logger.warning("crash point %s: killing process %d", name, os.getpid())
        os.kill(os.getpid(), signal.SIGKILL)
