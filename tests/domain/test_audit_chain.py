"""The audit chain: writers never wait for one another, the chainer links only final entries in
commit order, each link hashes its entry and the one before, and the head is signed."""

from __future__ import annotations

import asyncio
import base64
import uuid

import asyncpg
import pytest
from nacl.signing import VerifyKey

from core.settings import Settings
from core.unit_of_work import unit_of_work
from domain import audit, audit_chain
from models.audit import AuditChainLink, AuditEntry, AuditHead
from tests.support.callers import make_workspace
from tests.support.statements import statements_sent


async def _chain_until(workspace_id: uuid.UUID, count: int) -> int:
    """Chain until ``count`` entries are linked: the horizon is cluster-wide, so a transaction of
    another database on the same server (another test run) may hold it back a moment."""
    linked = 0
    for _ in range(500):
        async with unit_of_work():
            linked += await audit_chain.chain(workspace_id=workspace_id)
        if linked >= count:
            return linked
        await asyncio.sleep(0.02)
    return linked


async def _insert_entry(conn: asyncpg.Connection, workspace_id: uuid.UUID, action: str) -> None:
    await conn.execute(
        "INSERT INTO audit_log (id, workspace_id, actor_type, action, object_type, details, created_at) "
        "VALUES ($1, $2, 'system', $3, 'test', '{}', now())", uuid.uuid4(), workspace_id, action)


async def test_entries_take_positions_in_commit_order_and_links_hash_them_in_that_order(database):
    # Given a workspace with three audited changes in two transactions
    ws = await make_workspace()
    async with unit_of_work():
        await audit.record(action="test.first", object_type="test", object_id="1", actor_id=None, workspace_id=ws.id)
        await audit.record(action="test.second", object_type="test", object_id="2", actor_id=None,
                           workspace_id=ws.id, details={"amount": "1" * 78, "label": "tаg"})
    async with unit_of_work():
        await audit.record(action="test.third", object_type="test", object_id="3", actor_id=None, workspace_id=ws.id)
    # When the chainer runs
    await _chain_until(ws.id, 4)
    # Then every entry of the workspace is linked in position order, from the genesis hash
    links = await AuditChainLink.filter(workspace_id=ws.id).order_by("seq")
    entries = {e.id: e for e in await AuditEntry.filter(workspace_id=ws.id)}
    assert [link.seq for link in links] == list(range(1, len(entries) + 1))
    assert [link.position for link in links] == sorted(e.position for e in entries.values())
    assert links[0].previous_hash == audit_chain.GENESIS
    for before, link in zip([None, *links], links):
        entry = entries[link.entry_id]  # type: ignore[attr-defined]
        assert link.previous_hash == (before.hash if before else audit_chain.GENESIS)
        assert link.hash == audit_chain.link_hash(link.previous_hash, audit_chain.entry_document(entry, link.seq))
    # And the head is the last link, signed by the published key
    head = await audit_chain.latest_head(workspace_id=ws.id)
    assert head is not None and (head.seq, head.hash) == (links[-1].seq, links[-1].hash)
    (key,) = await audit_chain.published_keys()
    VerifyKey(base64.b64decode(key.public_key)).verify(audit_chain.head_message(audit_chain.head_document(head)),
                                                       base64.b64decode(head.signature))
    # And a second run finds nothing to do
    async with unit_of_work():
        assert await audit_chain.chain(workspace_id=ws.id) == 0


async def test_writers_never_wait_and_an_open_writer_holds_the_chain_back_not_the_others(settings: Settings, database):
    # Given a workspace, and a writer whose transaction wrote an entry and stays open
    ws = await make_workspace()
    await _chain_until(ws.id, 1)
    before = await AuditChainLink.filter(workspace_id=ws.id).count()
    slow, fast = await asyncpg.connect(settings.database_url), await asyncpg.connect(settings.database_url)
    try:
        slow_tx = slow.transaction()
        await slow_tx.start()
        await _insert_entry(slow, ws.id, "test.slow")
        # When another writer of the same workspace writes and commits meanwhile
        async with fast.transaction():
            await asyncio.wait_for(_insert_entry(fast, ws.id, "test.fast"), timeout=5)
        # Then it did not wait (no lock per workspace), and the chainer links neither of them yet
        async with unit_of_work():
            assert await audit_chain.chain(workspace_id=ws.id) == 0
        # And once the slow writer commits, both are linked, the slow one first (commit order)
        await slow_tx.commit()
        await _chain_until(ws.id, 2)
    finally:
        await slow.close()
        await fast.close()
    links = await AuditChainLink.filter(workspace_id=ws.id, seq__gt=before).order_by("seq")
    actions = [(await AuditEntry.get(id=link.entry_id)).action for link in links]  # type: ignore[attr-defined]
    assert actions == ["test.slow", "test.fast"]


async def test_the_chain_and_its_heads_are_append_only_and_a_rewritten_tail_stops_the_chainer(settings, database):
    # Given a chained workspace
    ws = await make_workspace()
    async with unit_of_work():
        await audit.record(action="test.one", object_type="test", object_id="1", actor_id=None, workspace_id=ws.id)
    await _chain_until(ws.id, 2)
    link = await AuditChainLink.filter(workspace_id=ws.id).order_by("-seq").first()
    assert link is not None
    # Then the links and heads refuse UPDATE and DELETE like the log itself
    with pytest.raises(Exception, match="append-only"):
        await AuditChainLink.filter(entry_id=link.entry_id).update(hash="0" * 64)  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="append-only"):
        await AuditHead.filter(workspace_id=ws.id).delete()
    # When someone with the database owner's rights rewrites the last link behind the service's back
    conn = await asyncpg.connect(settings.database_url)
    try:
        await conn.execute("ALTER TABLE audit_chain DISABLE TRIGGER audit_chain_append_only")
        await conn.execute("UPDATE audit_chain SET hash = $1 WHERE entry_id = $2", "f" * 64, link.entry_id)  # type: ignore[attr-defined]
        await conn.execute("ALTER TABLE audit_chain ENABLE TRIGGER audit_chain_append_only")
    finally:
        await conn.close()
    async with unit_of_work():
        await audit.record(action="test.two", object_type="test", object_id="2", actor_id=None, workspace_id=ws.id)
    # Then the chainer refuses to sign over it
    with pytest.raises(audit_chain.ChainBroken):
        async with unit_of_work():
            await audit_chain.chain(workspace_id=ws.id)


async def test_a_rotated_key_is_endorsed_by_the_one_before_and_signs_the_next_heads(database):
    ws = await make_workspace()
    await _chain_until(ws.id, 1)
    (first,) = await audit_chain.published_keys()
    # When the key is rotated
    async with unit_of_work():
        second = await audit_chain.rotate_signing_key()
    # Then the old key is retired, and endorsed the new one
    keys = await audit_chain.published_keys()
    assert [k.key_id for k in keys] == [first.key_id, second.key_id]
    assert keys[0].retired_at is not None and keys[1].retired_at is None
    message = audit_chain.endorsement_message(key_id=second.key_id, public_key=second.public_key,
                                              previous_key_id=first.key_id)
    VerifyKey(base64.b64decode(first.public_key)).verify(message, base64.b64decode(second.endorsement or ""))
    # And the next head is signed by the new key
    async with unit_of_work():
        await audit.record(action="test.after", object_type="test", object_id="1", actor_id=None, workspace_id=ws.id)
    await _chain_until(ws.id, 1)
    head = await audit_chain.latest_head(workspace_id=ws.id)
    assert head is not None and head.key_id == second.key_id


async def test_a_run_that_extends_the_chain_sends_the_lock_one_read_and_one_write(database):
    # Given a workspace whose chain holds its two entries (its creation's and one more), and two
    # more final entries
    ws = await make_workspace()
    async with unit_of_work():
        await audit.record(action="test.first", object_type="test", object_id="1", actor_id=None, workspace_id=ws.id)
    await _chain_until(ws.id, 2)
    before = await AuditChainLink.filter(workspace_id=ws.id).count()
    async with unit_of_work():
        await audit.record(action="test.second", object_type="test", object_id="2", actor_id=None, workspace_id=ws.id)
        await audit.record(action="test.third", object_type="test", object_id="3", actor_id=None, workspace_id=ws.id)
    # When the chainer links them (the horizon may hold them back a moment: runs that link nothing are skipped)
    for _ in range(500):
        with statements_sent() as sent:
            async with unit_of_work():
                linked = await audit_chain.chain(workspace_id=ws.id)
        if linked:
            break
        await asyncio.sleep(0.02)
    # Then both are linked after the first, and the head signs the last
    assert linked == 2
    links = await AuditChainLink.filter(workspace_id=ws.id).order_by("seq")
    assert [link.seq for link in links] == list(range(1, before + 3))
    assert links[before].previous_hash == links[before - 1].hash
    head = await audit_chain.latest_head(workspace_id=ws.id)
    assert head is not None and (head.seq, head.hash, head.position) == (links[-1].seq, links[-1].hash, links[-1].position)
    # And the run sent the chain's lock, one read (last link, head, key and entries) and one write (links and head)
    assert len([s for s in sent if s not in ("BEGIN;", "COMMIT;")]) == 3, sent
