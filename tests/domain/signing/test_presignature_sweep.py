"""The presignature stock sweep: parts that can never sign are wiped (not flagged) after a grace
period on the injectable clock: a part whose partner never came, and the parts of retired key sets;
spent rows of the whole stock are deleted once past their retention."""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

import nacl.utils
import pytest

from core.db import transaction
from core.unit_of_work import unit_of_work
from domain.signing import presignatures, stock
from models.keys import KeySet
from models.stock import StockItem
from tests.support.signing import key_set_row
from threshold.scheme import ECDSA_SCHEME

KEY = nacl.utils.random(32)


async def _key_set(status: str = "ready") -> KeySet:
    return await key_set_row("Sweep", status=status)


async def _part(key_set: KeySet, pair: tuple[int, int], holder: int, big_r: bytes) -> uuid.UUID:
    async with transaction():
        [item] = await stock.add(kind=presignatures.kind_of(pair), holder=str(holder), key_set_id=key_set.id,
                                 items=[(big_r, b"secret part")], share_key=KEY)
    return item


async def test_a_part_without_its_partner_is_wiped_after_the_grace_period(database, frozen_clock, caplog):
    # Given a presignature whose two parts were stored, one whose signer 2 part never came, and a
    # co-signer pair's signer part whose co-signer never registered its own
    key_set = await _key_set()
    matched = [await _part(key_set, (1, 2), holder, b"R-matched") for holder in (1, 2)]
    orphan = await _part(key_set, (1, 2), 1, b"R-orphan")
    cosigner_orphan = await _part(key_set, (1, 3), 1, b"R-cosigner")
    # When the sweep runs before the grace period is over
    frozen_clock.advance(timedelta(seconds=presignatures.ORPHAN_GRACE_SECONDS - 1))
    async with transaction():
        early = await presignatures.sweep_stock()
    # Then nothing is touched (the partner may still be on its way)
    assert early == {"unmatched": 0, "retired": 0, "purged": 0}
    assert await StockItem.filter(state="available").count() == 4
    # When it runs after the grace period
    frozen_clock.advance(timedelta(seconds=2))
    with caplog.at_level(logging.INFO, logger="domain.signing.presignatures"):
        async with transaction():
            swept = await presignatures.sweep_stock()
    # Then both parts without a partner are wiped, secret and all, and counted in the log
    assert swept == {"unmatched": 2, "retired": 0, "purged": 0}
    for item_id in (orphan, cosigner_orphan):
        row = await StockItem.get(id=item_id)
        assert row.state == "discarded" and row.sealed is None
    assert "wiped 2 presignature part(s) without a partner" in caplog.text
    # And the matched presignature is still whole and can be taken
    assert {(r.state, r.sealed is not None) for r in await StockItem.filter(id__in=matched)} == {("available", True)}
    async with transaction():
        taken = await stock.take_matching(kind=presignatures.KIND, holders=presignatures.HOLDERS,
                                          session_id=uuid.uuid4(), key_set_id=key_set.id)
    assert {item.id for item in taken} == set(matched)


async def test_the_parts_of_a_retired_key_set_are_wiped(database, frozen_clock):
    # Given whole presignatures of a failed key set and of a key set a newer ready one replaced
    failed = await _key_set(status="failed")
    old = await _key_set()
    frozen_clock.advance(timedelta(seconds=1))
    async with unit_of_work():
        await KeySet.create(workspace_id=old.workspace_id, vault_id=old.vault_id, scheme=ECDSA_SCHEME,
                            context=b"ctx2", status="ready", group_public_key=b"\x03" + bytes(32))
    live = await _key_set()
    for key_set in (failed, old, live):
        for holder in (1, 2):
            await _part(key_set, (1, 2), holder, b"R-" + str(key_set.id).encode())
    # When the sweep runs (no grace needed: they will never sign)
    async with transaction():
        swept = await presignatures.sweep_stock()
    # Then the retired ones are wiped and the live key set's presignature stays
    assert swept == {"unmatched": 0, "retired": 4, "purged": 0}
    assert await StockItem.filter(key_set_id__in=[failed.id, old.id], state="discarded", sealed=None).count() == 4
    assert await presignatures.available(live.id) == 1


async def test_spent_rows_are_deleted_once_past_their_retention_and_nothing_else(database, frozen_clock):
    # Given a used item, a discarded one, and an available one still whole
    key_set = await _key_set()
    kind = presignatures.kind_of((1, 2))
    used, discarded, available = [await _part(key_set, (1, 2), holder, b"R-" + bytes([n]))
                                  for n, holder in enumerate((1, 2, 1))]
    used_by, discarded_by = uuid.uuid4(), uuid.uuid4()
    async with transaction():
        await StockItem.filter(id=used).update(state="taken", session_id=used_by)
        await StockItem.filter(id=discarded).update(state="taken", session_id=discarded_by)
        assert (await stock.use(session_id=used_by, holder="1", kind=kind, share_key=KEY)).secret == b"secret part"
        assert await stock.discard(session_id=discarded_by) == 1
    # When the sweep runs just before their retention is over
    frozen_clock.advance(stock.SPENT_RETENTION - timedelta(seconds=1))
    async with transaction():
        assert (await presignatures.sweep_stock(grace_seconds=10**9))["purged"] == 0
    # Then they are still there; and once it is over, both spent rows are deleted, and only they
    frozen_clock.advance(timedelta(seconds=2))
    async with transaction():
        assert (await presignatures.sweep_stock(grace_seconds=10**9))["purged"] == 2
    assert set(await StockItem.all().values_list("id", flat=True)) == {available}
    # And the session that used the purged item is refused all the same: nothing is opened again
    with pytest.raises(stock.StockItemUsed):
        async with transaction():
            await stock.use(session_id=used_by, holder="1", kind=kind, share_key=KEY)
