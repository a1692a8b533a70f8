"""The audit log through HTTP, as an integrator reads and verifies it with the SDK: entries with
their hashes, filters and cursor paging, who may read, the signed head against a pinned key and
its rotation, and a row rewritten in the database caught and named."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import asyncpg
import pytest
from nacl.signing import SigningKey

from actors.audit import chain_workspace
from core.settings import Settings
from core.unit_of_work import unit_of_work
from custody_sdk import AuditLog, AuditVerificationError, verify_page
from domain import audit_chain
from tests.support.approvals import make_owner
from tests.support.callers import make_caller
from tests.support.sdk import sdk_for
from tests.support.wallets import Api

ENTRIES = "/api/v1/audit/entries"


async def _chained(api: Api, count: int) -> dict[str, Any]:
    """Run the chainer (the job a commit nudges) until every entry written so far is served, at least
    ``count``; the page. Counting alone is not enough: the workspace also holds the entries of its
    creation and of each API user made, and a transaction of another test still open holds the
    horizon back, so the first ``count`` served need not be the ones the test wrote last."""
    for _ in range(500):
        await chain_workspace(uuid.UUID(api.caller.workspace_id))
        status, page = await api.get(ENTRIES, limit=1000)
        assert status == 200, page
        if len(page["entries"]) >= count and page["chain"]["pending"] == 0:
            return page
        await asyncio.sleep(0.02)
    raise AssertionError(f"fewer than {count} entries were chained: {page}")


async def _admin_with_tags(client, labels: list[str]) -> tuple[Api, list[dict[str, Any]]]:
    api = Api(client, await make_caller(role="ADMIN"))
    made = []
    for label in labels:
        status, tag = await api.post("/api/v1/tags", {"label": label})
        assert status == 201, tag
        made.append(tag)
    return api, made


async def test_entries_are_served_chained_filtered_and_paged(client, broker):
    # Given a workspace (an ADMIN API user) that audited five tag changes made over HTTP, by two people
    api, made = await _admin_with_tags(client, ["alpha", "beta", "gamma"])
    admin = Api(client, await make_caller(role="ADMIN", workspace_id=api.caller.workspace_id))
    status, _ = await admin.request("PATCH", f"/api/v1/tags/{made[0]['id']}", json={"label": "alpha-2"})
    assert status == 200
    status, _ = await admin.request("DELETE", f"/api/v1/tags/{made[2]['id']}")
    assert status in (200, 204)
    # When the chain has caught up
    page = await _chained(api, 5)
    # Then every entry is served oldest first, each carrying the hash of the one before
    entries = page["entries"]
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert entries[0]["previous_hash"] == audit_chain.GENESIS
    assert all(b["previous_hash"] == a["hash"] for a, b in zip(entries, entries[1:]))
    assert page["chain"]["length"] == entries[-1]["seq"] and page["chain"]["head"]["hash"] == entries[-1]["hash"]
    verify_page(entries)
    # And the filters narrow by action, actor, object and time
    status, created = await api.get(ENTRIES, action="tag.created")
    assert [e["object_id"] for e in created["entries"]] == [t["id"] for t in made]
    status, by_admin = await api.get(ENTRIES, actor_id=admin.caller.user_id)
    assert [e["action"] for e in by_admin["entries"]] == ["tag.updated", "tag.deleted"]
    status, about = await api.get(ENTRIES, object_type="tag", object_id=made[0]["id"])
    assert [e["action"] for e in about["entries"]] == ["tag.created", "tag.updated"]
    status, none_yet = await api.get(ENTRIES, until="2000-01-01T00:00:00Z")
    assert (status, none_yet["entries"]) == (200, [])
    status, since = await api.get(ENTRIES, since=entries[0]["created_at"], action="tag.deleted")
    assert [e["object_id"] for e in since["entries"]] == [made[2]["id"]]
    # And the cursor pages through the same entries, two at a time
    seen, cursor = [], 0
    while True:
        status, chunk = await api.get(ENTRIES, cursor=cursor, limit=2)
        assert status == 200 and len(chunk["entries"]) <= 2
        seen += chunk["entries"]
        if chunk["next_cursor"] is None:
            break
        cursor = chunk["next_cursor"]
    assert seen == entries


async def test_only_the_owner_and_administrators_read_it_and_never_another_workspaces(client, broker):
    # Given a workspace with audited changes, and one of another company
    api, _ = await _admin_with_tags(client, ["mine"])
    other, _ = await _admin_with_tags(client, ["theirs"])
    await _chained(api, 1)
    await _chained(other, 1)
    # When an EDITOR, a VIEWER and an APPROVER ask
    for role in ("EDITOR", "VIEWER", "APPROVER", "SIGNER"):
        member = Api(client, await make_caller(role=role, workspace_id=api.caller.workspace_id))
        status, denied = await member.get(ENTRIES)
        # Then each is refused for lacking VIEW_AUDIT_LOG
        assert (status, denied["code"], denied["details"]["permission"]) == (403, "PERMISSION_DENIED", "VIEW_AUDIT_LOG")
        status, denied = await member.get("/api/v1/audit/head")
        assert status == 403
    # And the owner (a person, from their paired device) and an ADMIN read it, without a single entry of
    # the other workspace
    owner = Api(client, await make_owner(workspace_id=api.caller.workspace_id))
    status, page = await owner.get(ENTRIES)
    assert status == 200 and {e["workspace_id"] for e in page["entries"]} == {api.caller.workspace_id}
    admin = Api(client, await make_caller(role="ADMIN", workspace_id=api.caller.workspace_id))
    status, page = await admin.get(ENTRIES)
    assert status == 200 and {e["workspace_id"] for e in page["entries"]} == {api.caller.workspace_id}
    # And the other workspace's id in the header is the usual 404
    status, foreign = await admin.request("GET", ENTRIES, headers=admin.caller.headers(workspace=other.caller.workspace_id))
    assert (status, foreign["code"]) == (404, "WORKSPACE_NOT_FOUND")


async def test_the_sdk_verifies_the_chain_against_a_pinned_key_and_names_a_rewritten_row(client, broker,
                                                                                      settings: Settings):
    # Given a workspace with audited changes, chained, and the key its integrator pinned
    api, made = await _admin_with_tags(client, ["one", "two", "three"])
    await _chained(api, 3)
    custody = sdk_for(client, api.caller)
    status, keys = await api.get("/api/v1/audit/keys")
    assert status == 200 and len(keys["keys"]) == 1
    pinned = keys["keys"][0]["public_key"]
    # When the SDK verifies the whole log
    log = AuditLog(custody, pinned_public_key=pinned, page_size=2)
    verified = await log.verify()
    # Then it passes, up to the signed head it returns (to keep as a checkpoint)
    assert verified.head is not None and len(verified.entries) == verified.head["seq"] >= 3
    checkpoint = verified.head
    # And a key it never pinned is refused
    with pytest.raises(AuditVerificationError, match="does not lead to"):
        await AuditLog(custody, pinned_public_key=bytes(SigningKey.generate().verify_key)).verify()
    # When someone with the database owner's rights rewrites one entry's details
    target = next(e for e in verified.entries if e["object_id"] == made[1]["id"])
    conn = await asyncpg.connect(settings.database_url)
    try:
        await conn.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only")
        await conn.execute("""UPDATE audit_log SET details = '{"label": "rewritten"}' WHERE id = $1""",
                           uuid.UUID(target["id"]))
        await conn.execute("ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only")
    finally:
        await conn.close()
    # Then the verification fails, naming that entry
    with pytest.raises(AuditVerificationError) as failed:
        await log.verify(checkpoints=[checkpoint])
    assert (failed.value.seq, failed.value.entry_id) == (target["seq"], target["id"])
    assert target["id"] in str(failed.value) and "changed after it was chained" in str(failed.value)


async def test_a_rotated_key_is_followed_from_the_pinned_one_and_a_rebuilt_chain_fails_the_checkpoint(
        client, broker, settings: Settings):
    # Given a verified log whose head the integrator kept, under the key they pinned
    api, _ = await _admin_with_tags(client, ["first"])
    before = len((await _chained(api, 1))["entries"])
    custody = sdk_for(client, api.caller)
    _, keys = await api.get("/api/v1/audit/keys")
    pinned = keys["keys"][0]["public_key"]
    checkpoint = (await AuditLog(custody, pinned_public_key=pinned).verify()).head
    # When the service's key is rotated and more is audited
    async with unit_of_work():
        rotated = await audit_chain.rotate_signing_key()
    status, _ = await api.post("/api/v1/tags", {"label": "second"})
    assert status == 201
    page = await _chained(api, before + 1)
    assert page["chain"]["head"]["key_id"] == rotated.key_id
    # Then the log still verifies from the key pinned before the rotation (the old key endorsed the new)
    verified = await AuditLog(custody, pinned_public_key=pinned).verify(checkpoints=[checkpoint])
    assert verified.head is not None and verified.head["key_id"] == rotated.key_id
    _, keys = await api.get("/api/v1/audit/keys")
    assert [k["retired_at"] is None for k in keys["keys"]] == [False, True]
    # And resuming from the saved head verifies only what was chained since, linked to it
    assert checkpoint is not None
    resumed = await AuditLog(custody, pinned_public_key=pinned).verify(resume_from=checkpoint)
    assert [e["seq"] for e in resumed.entries] == list(range(checkpoint["seq"] + 1, verified.head["seq"] + 1))
    # But a chain rebuilt from the first entry (hashes recomputed) no longer passes the saved head
    conn = await asyncpg.connect(settings.database_url)
    try:
        await conn.execute("ALTER TABLE audit_chain DISABLE TRIGGER audit_chain_append_only")
        await conn.execute("UPDATE audit_chain SET hash = $1 WHERE workspace_id = $2 AND seq = $3",
                           "e" * 64, uuid.UUID(api.caller.workspace_id), checkpoint["seq"])
        await conn.execute("ALTER TABLE audit_chain ENABLE TRIGGER audit_chain_append_only")
    finally:
        await conn.close()
    with pytest.raises(AuditVerificationError) as failed:
        await AuditLog(custody, pinned_public_key=pinned).verify(checkpoints=[checkpoint])
    assert failed.value.seq == checkpoint["seq"]
