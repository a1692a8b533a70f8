"""The audit log is append-only and written in the transaction of the change it records."""

from __future__ import annotations

import pytest

from core.unit_of_work import unit_of_work
from domain import audit, companies
from models.audit import AuditEntry
from models.companies import Company


async def test_audit_entry_commits_and_rolls_back_with_the_change(database):
    async with unit_of_work():
        company = await companies.create_company(principal=None, name="Kept", email="k@k.test")
    with pytest.raises(RuntimeError):
        async with unit_of_work():
            await companies.create_company(principal=None, name="Dropped", email="d@d.test")
            raise RuntimeError("abort")
    assert [c.name for c in await Company.all()] == ["Kept"]
    entries = await AuditEntry.filter(action="company.created")
    assert [e.object_id for e in entries] == [str(company.id)]


async def test_audit_log_refuses_update_and_delete(database):
    async with unit_of_work():
        entry = await audit.record(action="test.done", object_type="test", object_id="1", actor_id=None)
    with pytest.raises(Exception, match="append-only"):
        await AuditEntry.filter(id=entry.id).update(action="test.rewritten")
    with pytest.raises(Exception, match="append-only"):
        await AuditEntry.filter(id=entry.id).delete()
    assert (await AuditEntry.get(id=entry.id)).action == "test.done"
