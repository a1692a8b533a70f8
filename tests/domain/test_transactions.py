"""Transactions: change-log positions under concurrent writers (no lock), retention, held balances."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from core.unit_of_work import unit_of_work
from domain import balances, deposits, transactions
from domain.errors import DomainError
from domain.networks.registry import get_adapter
from domain.withdrawals import create, lifecycle
from domain.withdrawals.create import WithdrawalRequest
from models.transactions import Transaction
from models.wallets import Wallet
from tests.support.changelog import all_changes, until_final
from tests.support.wallets import address_of, fund, open_wallet, reload, vault_with_key, watch, workspace
from tests.support.withdrawals import (
    allow_one_time_addresses,
    confirm,
    external_utxo_address,
    to_broadcast,
    withdraw,
)

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18


async def _credit(wallet: Wallet, amount: int) -> None:
    async with unit_of_work():
        locked = await balances.lock_wallets([wallet.id])
        await balances.apply_change(wallet=locked[wallet.id], total=amount)


async def _second_deposit_commits_while_the_first_is_open(ws) -> tuple[asyncio.Event, asyncio.Task]:
    """Two vaults of ``ws`` with a deposit each in its own block: the first recorded by a unit of
    work left open (it holds its position, uncommitted), the second committed after it. Returns
    the event that lets the first commit and its task."""
    first = await open_wallet(await vault_with_key(ws, name="A"), "DBTC_TEST")
    second = await open_wallet(await vault_with_key(ws, name="B"), "DBTC_TEST")
    await fund(UTXO, await address_of(first), 10_000)
    await fund(UTXO, await address_of(second), 20_000)
    adapter = get_adapter(UTXO)
    async with unit_of_work():
        block_1, block_2 = await adapter.read_block(1), await adapter.read_block(2)
    a_written, release_a = asyncio.Event(), asyncio.Event()

    async def writer_a() -> None:
        async with unit_of_work():
            await deposits.record_block_deposits(adapter=adapter, block=block_1)
            a_written.set()
            await release_a.wait()  # A holds its position, uncommitted

    task_a = asyncio.create_task(writer_a())
    await a_written.wait()
    async with unit_of_work():
        await deposits.record_block_deposits(adapter=adapter, block=block_2)
    return release_a, task_a


async def test_writers_never_wait_and_a_reader_serves_only_final_positions(broker):
    # Given two vaults of one workspace with a deposit each in its own block
    ws = await workspace()
    # When B records its deposit while A is open, B commits without waiting for A
    release_a, task_a = await _second_deposit_commits_while_the_first_is_open(ws)
    # Then a reader serves neither: B's position is above A's, which may still commit below it
    page = await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=0)
    assert page.items == [] and page.next_cursor == 0
    # When A commits, both are served, A first: positions follow the writing transactions
    release_a.set()
    await task_a
    items = await all_changes(ws.id)
    assert [int(t.amount) for t in items] == [10_000, 20_000]
    assert items[0].seq < items[1].seq


async def test_concurrent_writers_never_make_a_reader_skip_or_reorder(broker):
    ws = await workspace()
    writers, per_writer = 6, 6
    wallets = []
    for index in range(writers):
        wallet = await open_wallet(await vault_with_key(ws, name=f"V{index}"), "DBTC_TEST")
        await _credit(wallet, 10_000_000)
        wallets.append(wallet)
    done = asyncio.Event()
    seen: dict[str, int] = {}
    cursors: list[int] = []

    await allow_one_time_addresses(ws.id)
    to = external_utxo_address()

    async def writer(wallet: Wallet) -> None:
        for index in range(per_writer):
            async with unit_of_work():
                await create.create_withdrawal(principal=None, workspace=ws, request=WithdrawalRequest(
                    amount=1_000 + index, source_wallet_id=wallet.id, target_address=to))
                await asyncio.sleep(random.random() / 200)  # hold the position a little, uncommitted
            await asyncio.sleep(0)

    async def reader() -> None:
        cursor = 0
        while True:
            finished = done.is_set()
            page = await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=cursor, limit=4)
            for item in page.items:
                assert item.seq > cursor
                seen[str(item.id)] = item.seq  # type: ignore[assignment]
            cursor = page.next_cursor
            cursors.append(cursor)
            if finished and not page.has_more:
                return
            await asyncio.sleep(0)

    reading = asyncio.create_task(reader())
    await asyncio.gather(*(writer(w) for w in wallets))
    await until_final()
    done.set()
    await reading
    # Every transaction was seen by the reader that paged while they were written, in order
    written = {str(t.id): t.seq for t in await Transaction.all()}
    assert len(written) == writers * per_writer
    assert seen == written
    assert cursors == sorted(cursors)
    assert len(set(written.values())) == len(written)


async def test_min_cursor_advances_past_changes_older_than_the_retention(broker, frozen_clock):
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DBTC_TEST")
    address = await address_of(wallet)
    for amount in (10_000, 20_000):
        await fund(UTXO, address, amount)
    await watch(UTXO)
    await until_final()
    async with unit_of_work():
        assert await transactions.compact(workspace_id=ws.id, retention=timedelta(days=90)) == 0
    # When 100 days pass, another deposit arrives and the log is compacted to 90 days
    frozen_clock.advance(days=100)
    await fund(UTXO, address, 30_000)
    await watch(UTXO)
    await until_final()
    async with unit_of_work():
        min_cursor = await transactions.compact(workspace_id=ws.id, retention=timedelta(days=90))
    # Then min_cursor is the last old change's position, and a cursor below it is refused with 410
    old_1, old_2, recent = (t.seq for t in await Transaction.filter(workspace_id=ws.id).order_by("created_at"))
    assert (old_1, old_2) == (None, None)
    assert min_cursor < recent
    with pytest.raises(DomainError) as expired:
        await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=min_cursor - 1)
    assert (expired.value.status, expired.value.code) == (410, "CURSOR_EXPIRED")
    assert expired.value.details["min_cursor"] == min_cursor
    # And from min_cursor on, nothing is missing; the snapshot reports the same min_cursor
    assert [int(t.amount) for t in await all_changes(ws.id, since=min_cursor)] == [30_000]
    snap = await balances.snapshot(principal=None, workspace_id=ws.id)
    assert snap.cursor >= recent and snap.min_cursor == min_cursor
    # And compacting again without new old changes changes nothing
    async with unit_of_work():
        assert await transactions.compact(workspace_id=ws.id, retention=timedelta(days=90)) == min_cursor


async def test_held_is_the_sum_of_outgoing_transfers_in_flight(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    token = await open_wallet(tv, "DUSD_TEST")
    native = await Wallet.get(vault_id=tv.vault.id, currency_id="DETH_TEST")
    address = await address_of(native)
    await fund(EVM, address, ETH, mine=False)
    await fund(EVM, address, 100_000_000, currency_id="DUSD_TEST")
    await watch(EVM)
    fee_limit = 65_000 * 10**9
    # When two token transfers are in flight
    first = (await withdraw(ws, token, "0x" + "cd" * 20, 30_000_000)).transaction
    second = (await withdraw(ws, token, "0x" + "cd" * 20, 20_000_000)).transaction
    # Then held is their sum (fees held on the native wallet) and available is reduced by it
    token, native = await reload(token), await reload(native)
    assert balances.parts_of(token).held == 50_000_000 and balances.parts_of(token).available == 50_000_000
    assert balances.parts_of(native).held == 2 * fee_limit and balances.parts_of(native).available == ETH - 2 * fee_limit
    # And a transfer beyond the available balance is refused, changing nothing
    with pytest.raises(DomainError) as refused:
        await withdraw(ws, token, "0x" + "cd" * 20, 60_000_000)
    assert refused.value.code == "INSUFFICIENT_BALANCE"
    # When one finishes on the network and the other is cancelled
    first = await confirm(await to_broadcast(first, tv.key))
    async with unit_of_work():
        await lifecycle.cancel(principal=None, workspace_id=ws.id, transaction_id=second.id)
    token, native = await reload(token), await reload(native)
    assert balances.parts_of(token) == balances.BalanceParts(total=70_000_000, held=0, block_height=2)
    assert (balances.parts_of(native).total, balances.parts_of(native).held) == (ETH - int(first.fee), 0)
    # And the log holds each transaction once, in its current state, after the deposits
    items = await all_changes(ws.id)
    assert [(t.direction, t.status) for t in items] == [
        ("deposit", "finished"), ("deposit", "finished"), ("withdrawal", "finished"), ("withdrawal", "cancelled")]
    assert [t.seq for t in items] == sorted(t.seq for t in items)
    # And the address's balance_version only grew, one step per balance change
    versions = [t.balance_version for t in items]
    assert versions == sorted(versions) and len(set(versions)) == len(versions)


async def test_change_log_rejects_bad_cursors_and_limits(broker):
    ws = await workspace()
    ahead = transactions.MAX_CURSOR  # above the horizon: never handed out
    for since, limit, code in ((ahead, 100, "INVALID_CURSOR"), (0, 0, "VALIDATION_ERROR"),
                               (0, 1001, "VALIDATION_ERROR")):
        with pytest.raises(DomainError) as refused:
            await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=since, limit=limit)
        assert (refused.value.status, refused.value.code) == (400, code)
    for raw in ("abc", "-1", "1.5", "9" * 30, str(2**63)):
        with pytest.raises(DomainError) as refused:
            transactions.parse_cursor(raw)
        assert refused.value.code == "INVALID_CURSOR"


async def test_a_cursor_at_or_above_the_horizon_gets_an_empty_page_and_keeps_its_place(broker):
    # Given a workspace with two deposits, the first written by a transaction still open (it holds
    # the horizon) and the second committed after it: the second's position is above the horizon
    # (as a cursor handed out a moment ago is when the horizon stepped back: core/commit_order.py)
    ws = await workspace()
    release_a, task_a = await _second_deposit_commits_while_the_first_is_open(ws)
    above = (await Transaction.get(workspace_id=ws.id, amount=20_000)).seq
    try:
        # When a reader asks for the changes after that position
        page = await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=above)
        # Then it gets an empty page that keeps its place (not 400: positions up to it may well have
        # been handed out), while a cursor above every position handed out is still refused
        assert (page.items, page.next_cursor, page.has_more) == ([], above, False)
        with pytest.raises(DomainError) as refused:
            await transactions.changes(principal=None, workspace_id=ws.id, since_cursor=transactions.MAX_CURSOR)
        assert refused.value.code == "INVALID_CURSOR"
    finally:
        release_a.set()
        await task_a
    # And once the open transaction ends, the reader from the start sees both, in order
    assert [int(t.amount) for t in await all_changes(ws.id)] == [10_000, 20_000]
