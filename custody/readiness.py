"""Waiting for the API before using it: ``custody bootstrap`` run right after ``scripts/dev &``."""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.request
from typing import TextIO

#: Answers as soon as the API serves requests (no token needed).
PROBE_PATH = "/api/v2/auth/time"
#: How often a waiting command says it still waits.
REPORT_EVERY_SECONDS = 10.0


def service_ready(base_url: str, *, timeout: float = 2.0) -> bool:
    """Whether the API at ``base_url`` answers its time endpoint."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + PROBE_PATH, timeout=timeout) as response:
            return response.status == 200 and "unix_seconds" in json.loads(response.read() or b"{}")
    except (OSError, ValueError, urllib.error.URLError):
        return False


def wait_for_service(base_url: str, *, timeout: float, out: TextIO = sys.stderr, interval: float = 0.5) -> bool:
    """Wait until the API at ``base_url`` answers, saying so while it waits; False after ``timeout``."""
    if service_ready(base_url):
        return True
    print(f"waiting for the service at {base_url} (start it with `scripts/dev`; up to {timeout:g} s)...",
          file=out, flush=True)
    started = time.monotonic()
    reported = started
    while time.monotonic() - started < timeout:
        time.sleep(interval)
        if service_ready(base_url):
            print(f"the service at {base_url} is up", file=out, flush=True)
            return True
        if time.monotonic() - reported >= REPORT_EVERY_SECONDS:
            reported = time.monotonic()
            print(f"still waiting for {base_url} ({int(reported - started)} s)", file=out, flush=True)
    return False
