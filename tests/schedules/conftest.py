"""Fixtures of the scheduler tests."""

from __future__ import annotations

import zlib

import pytest

from core.settings import Settings
from tests.support.environment import TEST_DATABASE


@pytest.fixture
def scheduler_settings(settings: Settings) -> Settings:
    # A lock key of this test database, so parallel suites on one server do not elect each other.
    return settings.with_overrides(scheduler_lock_key=zlib.crc32(TEST_DATABASE.encode()))
