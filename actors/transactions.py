"""Change-log retention (enqueued by the scheduler every CHANGELOG_COMPACTION_INTERVAL_SECONDS)."""

from __future__ import annotations

import logging
from datetime import timedelta

from core.jobs import actor
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain import transactions
from domain.transactions import COMPACT_CHANGELOG

logger = logging.getLogger(__name__)


@actor(COMPACT_CHANGELOG, max_retries=0)
async def compact_changelog() -> dict[str, int]:
    """Move every workspace's min_cursor past the changes older than CHANGELOG_RETENTION_DAYS."""
    retention = timedelta(days=get_settings().changelog_retention_days)
    moved: dict[str, int] = {}
    for workspace_id in await transactions.compactable_workspaces():
        async with unit_of_work():
            moved[str(workspace_id)] = await transactions.compact(workspace_id=workspace_id, retention=retention)
    return moved
