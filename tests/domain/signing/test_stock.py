"""The single-use stock: each item is taken by one session and used once, even across crashes."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import nacl.utils
import pytest
from tortoise.exceptions import IntegrityError, OperationalError

from core.db import transaction
from domain.signing import stock
from models.stock import StockItem
from tests.support.signing import key_set_row

KIND = "test-item"
KEY = nacl.utils.random(32)


async def _add(holder: str, n: int) -> list[uuid.UUID]:
    async with transaction():
        return await stock.add(kind=KIND, holder=holder, share_key=KEY,
                               items=[(f"public {holder}/{i}".encode(), f"secret {holder}/{i}".encode())
                                      for i in range(n)])


async def test_an_item_is_taken_by_one_session_and_its_secret_opened_once(database):
    # Given two items for each of two signers
    await _add("1", 2)
    await _add("2", 2)
    session = uuid.uuid4()
    # When a session takes one of each and signer 1 uses its item
    async with transaction():
        items = await stock.take(kind=KIND, holders=["1", "2"], session_id=session)
    assert [i.holder for i in items] == ["1", "2"] and all(i.secret is None for i in items)
    async with transaction():
        used = await stock.use(session_id=session, holder="1", kind=KIND, share_key=KEY)
    # Then it gets the secret that matches the public part, sealed at rest
    assert used.secret == used.public.replace(b"public", b"secret")
    row = await StockItem.get(id=used.id)
    assert row.state == "used" and row.sealed is None and row.session_id == session
    # And a second use is refused: the secret is never handed out twice
    with pytest.raises(stock.StockItemUsed):
        async with transaction():
            await stock.use(session_id=session, holder="1", kind=KIND, share_key=KEY)
    # And another session cannot use an item it did not take
    with pytest.raises(stock.StockItemUsed):
        async with transaction():
            await stock.use(session_id=uuid.uuid4(), holder="2", kind=KIND, share_key=KEY)
    assert await stock.count(kind=KIND, holder="1") == 1 and await stock.count(kind=KIND, holder="2") == 1


async def test_a_crash_after_taking_and_a_retry_never_reuse_an_item(database):
    # Given one item per signer
    await _add("1", 1)
    first = uuid.uuid4()
    async with transaction():
        [taken] = await stock.take(kind=KIND, holders=["1"], session_id=first)
    # When the signer crashes mid-use (its transaction rolls back after opening the secret)
    with pytest.raises(RuntimeError):
        async with transaction():
            await stock.use(session_id=first, holder="1", kind=KIND, share_key=KEY)
            raise RuntimeError("crash before the share was stored")
    # Then no other session can take it (a retried request finds the stock empty) ...
    with pytest.raises(stock.StockEmpty):
        async with transaction():
            await stock.take(kind=KIND, holders=["1"], session_id=uuid.uuid4())
    # ... and the retry of the same session uses the same item, once
    async with transaction():
        again = await stock.use(session_id=first, holder="1", kind=KIND, share_key=KEY)
    assert again.id == taken.id
    with pytest.raises(stock.StockItemUsed):
        async with transaction():
            await stock.use(session_id=first, holder="1", kind=KIND, share_key=KEY)


async def test_the_database_refuses_to_make_a_taken_item_available_again(database):
    [item_id] = await _add("1", 1)
    async with transaction():
        await stock.take(kind=KIND, holders=["1"], session_id=uuid.uuid4())
    async with transaction():
        await stock.use(session_id=(await StockItem.get(id=item_id)).session_id, holder="1", kind=KIND,
                        share_key=KEY)
    # A used item has no secret left, and no update can give it one or a new session's hands
    with pytest.raises((IntegrityError, OperationalError)):
        await StockItem.filter(id=item_id).update(state="available", session_id=None)


async def test_a_short_take_takes_nothing(database):
    # Given signer 1 has stock and signer 2 none
    await _add("1", 3)
    # When a session asks one of each
    with pytest.raises(stock.StockEmpty) as raised:
        async with transaction():
            await stock.take(kind=KIND, holders=["1", "2"], session_id=uuid.uuid4())
    # Then it is told who is short and signer 1's items stay available
    assert raised.value.details["available"] == {"2": 0}
    assert await stock.count(kind=KIND, holder="1") == 3
    # And a take inside a transaction that goes on after the refusal keeps nothing either
    session = uuid.uuid4()
    async with transaction():
        with pytest.raises(stock.StockEmpty):
            await stock.take(kind=KIND, holders=["1", "2"], session_id=session)
        assert await stock.taken(session_id=session) == []
    assert await stock.count(kind=KIND, holder="1") == 3


async def test_concurrent_takers_never_share_an_item(database):
    # Given 40 items and 50 sessions taking at once
    await _add("1", 40)

    async def one() -> list[uuid.UUID]:
        try:
            async with transaction():
                return [i.id for i in await stock.take(kind=KIND, holders=["1"], session_id=uuid.uuid4())]
        except stock.StockEmpty:
            return []

    results = await asyncio.gather(*(one() for _ in range(50)))
    taken = [item for result in results for item in result]
    # Then every item went to exactly one session, and the last ten found the stock empty
    assert len(taken) == len(set(taken)) == 40
    assert await stock.count(kind=KIND, holder="1") == 0


async def test_counts_refill_and_discard(database):
    # Given a stock that runs low
    await _add("1", 2)
    await _add("2", 5)
    assert await stock.counts(kind=KIND) == {("1", None): 2, ("2", None): 5}
    # When it is refilled, counts follow
    await _add("1", 3)
    assert await stock.count(kind=KIND, holder="1") == 5
    # And a session's unused items and a holder's available ones can be discarded, secrets wiped
    session = uuid.uuid4()
    async with transaction():
        await stock.take(kind=KIND, holders=["1"], session_id=session, count=2)
        assert await stock.discard(session_id=session) == 2
        assert await stock.discard(kind=KIND, holder="2") == 5
    assert await stock.counts(kind=KIND) == {("1", None): 3}
    assert await StockItem.filter(state="discarded", sealed__isnull=False).count() == 0
    with pytest.raises(stock.StockItemUsed):
        async with transaction():
            await stock.use(session_id=session, holder="1", kind=KIND, share_key=KEY)


async def test_a_batched_signer_spends_one_item_per_session_once(database):
    # Given three sessions that each took one item of signer 2
    await _add("2", 3)
    sessions = [uuid.uuid4() for _ in range(3)]
    async with transaction():
        for session in sessions:
            await stock.take(kind=KIND, holders=["2"], session_id=session)
    # When signer 2 spends the items of two of them in one statement
    async with transaction():
        spent = await stock.use_each(session_ids=sessions[:2], holder="2", kind=KIND, share_key=KEY)
    # Then each gets its own secret, and a second batch over all three gets only the third
    assert set(spent) == set(sessions[:2]) and len({i.secret for i in spent.values()}) == 2
    async with transaction():
        again = await stock.use_each(session_ids=sessions, holder="2", kind=KIND, share_key=KEY)
    assert list(again) == [sessions[2]]


async def test_a_take_keeps_the_items_of_a_key_set_and_those_of_any_apart_oldest_first(database, frozen_clock):
    # Given items of two holders usable with any key set, made a second apart, and an item made
    # for one key set
    key_set = await key_set_row("Stock")
    oldest_any = [*await _add("1", 1), *await _add("2", 1)]
    frozen_clock.advance(timedelta(seconds=1))
    await _add("1", 1)
    await _add("2", 1)
    async with transaction():
        bound = await stock.add(kind=KIND, holder="1", key_set_id=key_set.id, share_key=KEY,
                                items=[(b"bound", b"secret")])
    # When one session takes an item of any key set per holder and another one of the key set
    any_session, bound_session = uuid.uuid4(), uuid.uuid4()
    async with transaction():
        taken_any = await stock.take(kind=KIND, holders=["1", "2"], session_id=any_session)
        taken_bound = await stock.take(kind=KIND, holders=["1"], session_id=bound_session, key_set_id=key_set.id)
    # Then each gets its own kind of item: the oldest of any key set per holder, the key set's one
    assert [i.id for i in taken_any] == oldest_any
    assert [i.id for i in taken_bound] == bound
    # And the key set's stock is empty now, while one item of any key set per holder is left
    with pytest.raises(stock.StockEmpty):
        async with transaction():
            await stock.take(kind=KIND, holders=["1"], session_id=uuid.uuid4(), key_set_id=key_set.id)
    assert await stock.counts(kind=KIND) == {("1", None): 1, ("2", None): 1}
