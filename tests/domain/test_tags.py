"""Tags in the domain: changes that replay from their payload, locks that keep the rules under
concurrency, and the registry of what refers to a tag."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Awaitable, Callable, Sequence

import pytest
from tortoise import connections

from core.unit_of_work import unit_of_work
from domain import tags, vaults
from domain.errors import Conflict
from domain.tags import NewTag, TagChange, TagDeletion, TagReference, VaultTagsChange
from models.tags import Tag, VaultTag
from models.vaults import Vault
from tests.support.environment import TEST_DATABASE
from tests.support.wallets import workspace


async def _vault(workspace_id: uuid.UUID, name: str = "Vault") -> Vault:
    async with unit_of_work():
        return (await vaults.create_vault(principal=None, workspace_id=workspace_id, name=name)).vault


async def _new_tags(workspace_id: uuid.UUID, count: int, prefix: str = "t") -> list[uuid.UUID]:
    async with unit_of_work():
        return [(await tags.create_tag(principal=None, workspace_id=workspace_id,
                                       tag=NewTag(label=f"{prefix}{index:02}"))).id for index in range(count)]


async def _attach(workspace_id: uuid.UUID, vault_ids: Sequence[uuid.UUID],
                  tag_ids: Sequence[uuid.UUID]) -> tags.TagOperations:
    async with unit_of_work():
        return await tags.change_vault_tags(principal=None, workspace_id=workspace_id,
                                            change=VaultTagsChange(vault_ids=tuple(vault_ids), attach=tuple(tag_ids)))


async def _waiting_on_locks() -> int:
    rows = await connections.get("default").execute_query_dict(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'", [TEST_DATABASE])
    return int(rows[0]["n"])


async def _while_held(hold: Callable[[], Awaitable[object]], then: Callable[[], Awaitable[object]]) -> object:
    """Run ``hold`` in a transaction left open, start ``then`` until it waits on a lock, then commit
    ``hold``; answers what ``then`` answered (or raised)."""
    done, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with unit_of_work():
            await hold()
            done.set()
            await release.wait()

    held = asyncio.create_task(holder())
    await done.wait()
    waiting = asyncio.create_task(then())
    while await _waiting_on_locks() == 0:
        await asyncio.sleep(0.01)
    release.set()
    await held
    results = await asyncio.gather(waiting, return_exceptions=True)
    return results[0]


async def test_each_change_replays_from_its_payload(broker):
    # Given a workspace with a vault, and each tag change as an approval engine would store it (JSON)
    ws = await workspace()
    vault = await _vault(ws.id)

    def stored(change: NewTag | TagChange | TagDeletion | VaultTagsChange) -> dict:
        return json.loads(json.dumps(change.payload()))

    create = NewTag(label="Replayed", description="from a payload", color="#ABCDEF")
    assert stored(create)["operation"] == "create"
    # When each is rebuilt from its payload and applied
    async with unit_of_work():
        tag = await tags.create_tag(principal=None, workspace_id=ws.id, tag=NewTag.from_payload(stored(create)))
    change = TagChange(tag_id=tag.id, values={"label": "Replayed 2", "color": None})
    attach = VaultTagsChange(vault_ids=(vault.id, vault.id), attach=(tag.id,))
    assert NewTag.from_payload(stored(create)) == create
    assert TagChange.from_payload(stored(change)) == change
    assert VaultTagsChange.from_payload(stored(attach)) == attach and attach.vault_ids == (vault.id,)
    assert stored(change)["operation"] == "update" and stored(attach)["operation"] == "attach_detach"
    async with unit_of_work():
        updated = await tags.update_tag(principal=None, workspace_id=ws.id, change=TagChange.from_payload(stored(change)))
        applied = await tags.change_vault_tags(principal=None, workspace_id=ws.id,
                                               change=VaultTagsChange.from_payload(stored(attach)))
    # Then each does what the original would have done
    assert (tag.color, updated.label, updated.color) == ("#abcdef", "Replayed 2", None)
    assert [(o.operation, o.vault_id, o.tag_id) for o in applied.applied] == [("attach", vault.id, tag.id)]
    detach = VaultTagsChange(vault_ids=(vault.id,), detach=(tag.id,))
    deletion = TagDeletion(tag_id=tag.id)
    assert TagDeletion.from_payload(stored(deletion)) == deletion and stored(deletion)["operation"] == "delete"
    async with unit_of_work():
        await tags.change_vault_tags(principal=None, workspace_id=ws.id, change=VaultTagsChange.from_payload(
            stored(detach)))
        await tags.delete_tag(principal=None, workspace_id=ws.id, deletion=TagDeletion.from_payload(stored(deletion)))
    assert not await Tag.exists(id=tag.id)


async def test_two_requests_racing_for_a_vaults_last_tag_slots_never_exceed_twenty(broker):
    # Given a vault carrying 18 tags, and two requests that each attach two more
    ws = await workspace()
    vault = await _vault(ws.id)
    carried, first, second = (await _new_tags(ws.id, 18, "c"), await _new_tags(ws.id, 2, "a"),
                              await _new_tags(ws.id, 2, "b"))
    await _attach(ws.id, [vault.id], carried)

    # When the second request runs while the first is still open
    async def first_request() -> None:
        await tags.change_vault_tags(principal=None, workspace_id=ws.id,
                                     change=VaultTagsChange(vault_ids=(vault.id,), attach=tuple(first)))

    result = await _while_held(first_request, lambda: _attach(ws.id, [vault.id], second))
    # Then it waited for the first, and found the vault full
    assert isinstance(result, tags.TagOperations)
    assert [o.reason for o in result.rejected] == ["TAG_LIMIT_REACHED"] * 2
    assert await VaultTag.filter(vault_id=vault.id).count() == 20


async def test_a_delete_racing_an_attach_sees_the_attachment(broker):
    # Given a tag, and an attach of it that is not committed yet
    ws = await workspace()
    vault = await _vault(ws.id)
    [tag_id] = await _new_tags(ws.id, 1)

    async def attach() -> None:
        await tags.change_vault_tags(principal=None, workspace_id=ws.id,
                                     change=VaultTagsChange(vault_ids=(vault.id,), attach=(tag_id,)))

    async def delete() -> None:
        async with unit_of_work():
            await tags.delete_tag(principal=None, workspace_id=ws.id, deletion=TagDeletion(tag_id=tag_id))

    # When the tag is deleted meanwhile
    result = await _while_held(attach, delete)
    # Then the delete waited for the attach and refused: the tag is attached
    assert isinstance(result, Conflict) and result.code == "TAG_ATTACHED_TO_VAULT"
    assert await VaultTag.filter(tag_id=tag_id).count() == 1


async def test_an_attach_racing_a_delete_finds_the_tag_gone(broker):
    # Given a tag whose deletion is not committed yet
    ws = await workspace()
    vault = await _vault(ws.id)
    [tag_id] = await _new_tags(ws.id, 1)

    async def delete() -> None:
        await tags.delete_tag(principal=None, workspace_id=ws.id, deletion=TagDeletion(tag_id=tag_id))

    # When the tag is attached meanwhile
    result = await _while_held(delete, lambda: _attach(ws.id, [vault.id], [tag_id]))
    # Then the attach waited for the delete and rejected the pair as a tag that does not exist
    assert isinstance(result, tags.TagOperations)
    assert [(o.reason, o.tag_label) for o in result.rejected] == [("TAG_NOT_FOUND", None)]
    assert not await VaultTag.exists(tag_id=tag_id)


async def test_every_registered_provider_is_asked_and_only_about_its_workspaces_tags(broker):
    # Given two providers, one of which refers to the tag
    ws = await workspace()
    [tag_id] = await _new_tags(ws.id, 1)
    asked: list[tuple[uuid.UUID, list[uuid.UUID]]] = []

    async def silent(*, workspace_id: uuid.UUID, tag_ids: Sequence[uuid.UUID]) -> list[TagReference]:
        asked.append((workspace_id, list(tag_ids)))
        return []

    async def referring(*, workspace_id: uuid.UUID, tag_ids: Sequence[uuid.UUID]) -> list[TagReference]:
        return [TagReference(tag_id=t, kind="policy_rule", id="rule-7") for t in tag_ids]

    tags.register_reference_provider("silent", silent)
    tags.register_reference_provider("referring", referring)
    try:
        # When the tag is deleted
        with pytest.raises(Conflict) as refused:
            async with unit_of_work():
                await tags.delete_tag(principal=None, workspace_id=ws.id, deletion=TagDeletion(tag_id=tag_id))
        # Then both were asked about it, and the reference refuses the delete
        assert asked == [(ws.id, [tag_id])]
        assert refused.value.code == "TAG_IS_USED_IN_POLICY_RULE"
        assert refused.value.details["references"][0]["id"] == "rule-7"
        # When the referring provider is replaced by a silent one under the same name, the delete goes through
        tags.register_reference_provider("referring", silent)
        async with unit_of_work():
            await tags.delete_tag(principal=None, workspace_id=ws.id, deletion=TagDeletion(tag_id=tag_id))
        assert not await Tag.exists(id=tag_id)
    finally:
        tags.unregister_reference_provider("silent")
        tags.unregister_reference_provider("referring")
    assert await tags.references_to(workspace_id=ws.id, tag_ids=[tag_id]) == []
