"""The chainer jobs: an audited commit nudges its workspace's chainer (no outbox row), and the
scheduler's sweep chains every workspace left behind."""

from __future__ import annotations

import uuid

from actors import audit as audit_actors
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import audit, audit_chain
from models.audit import AuditChainLink, AuditEntry
from tests.support.callers import make_caller, make_workspace
from tests.support.wallets import Api
from tests.support.worker import wait_for


async def _all_chained(workspace_id: uuid.UUID | str) -> bool:
    entries = await AuditEntry.filter(workspace_id=workspace_id).count()
    return entries > 0 and await AuditChainLink.filter(workspace_id=workspace_id).count() == entries


async def test_an_audited_commit_nudges_the_chainer_of_its_workspace(client, worker):
    # Given an ADMIN API user with a running worker
    api = Api(client, await make_caller(role="ADMIN"))
    # When a tag is created over HTTP (an audited change)
    status, tag = await api.post("/api/v1/tags", {"label": "nudged"})
    assert status == 201
    # Then the worker chains the workspace's entries without anyone asking, and no outbox row was written
    await wait_for(lambda: _all_chained(api.caller.workspace_id), timeout=30)
    status, page = await api.get("/api/v1/audit/entries", action="tag.created")
    assert [e["object_id"] for e in page["entries"]] == [tag["id"]]
    assert not await Command.filter(actor_name__startswith="audit.").exists()


async def test_the_sweep_chains_every_workspace_left_behind(database):
    # Given two workspaces whose entries were written outside any unit of work's nudge
    first, second = await make_workspace(), await make_workspace()
    async with unit_of_work():
        for ws in (first, second):
            await audit.record(action="test.swept", object_type="test", object_id="1", actor_id=None,
                               workspace_id=ws.id)
    assert {first.id, second.id} <= set(await wait_for(audit_chain.workspaces_behind, timeout=30))
    # When the scheduler's sweep runs
    await audit_actors.sweep()
    # Then both chains hold every entry, and none is left behind
    assert await _all_chained(first.id) and await _all_chained(second.id)
    assert not {first.id, second.id} & set(await audit_chain.workspaces_behind())
