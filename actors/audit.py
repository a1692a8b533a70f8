"""Audit chain jobs, on the ``audit`` queue (docs/audit.md).

- ``audit.chain(workspace_id)``: nudged after each commit that wrote audit entries of the
  workspace (core.unit_of_work.nudge_after_commit): link its final entries and sign the head,
  a batch per transaction until none is left.
- ``audit.sweep`` (scheduler, every ``SWEEP_INTERVAL_SECONDS``): the same for every workspace
  whose chain is behind (a lost nudge, a transaction that was still open).
"""

from __future__ import annotations

import asyncio
import uuid

import dramatiq

from core.jobs import actor
from core.unit_of_work import clear_nudge, unit_of_work
from domain import audit_chain
from domain.audit_chain import CHAIN, CHAIN_BATCH, SWEEP


async def chain_workspace(workspace_id: uuid.UUID) -> int:
    """Chain everything final of one workspace, one short transaction per batch."""
    linked = 0
    while True:
        async with unit_of_work():
            done = await audit_chain.chain(workspace_id=workspace_id)
        linked += done
        if done < CHAIN_BATCH:
            return linked


@actor(CHAIN)
async def chain(workspace_id: str) -> None:
    """Link the workspace's final entries (see the module docstring)."""
    await asyncio.to_thread(clear_nudge, dramatiq.get_broker(), CHAIN, workspace_id)
    await chain_workspace(uuid.UUID(workspace_id))


@actor(SWEEP)
async def sweep() -> None:
    """Chain every workspace whose chain is behind."""
    async with unit_of_work():
        behind = await audit_chain.workspaces_behind()
    for workspace_id in behind:
        await chain_workspace(workspace_id)
