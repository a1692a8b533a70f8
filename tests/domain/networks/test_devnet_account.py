"""The account-model devnet (domain/networks/devnet_account.py): gas, nonces, tokens."""

from __future__ import annotations

import asyncio

import pytest

from core.unit_of_work import unit_of_work
from domain.errors import DomainError
from domain.networks import devnet
from models.devnet import DevnetTransaction
from tests.support.statements import statements_sent
from tests.support.wallets import Holder, fund, mine_block

EVM = "devnet-evm-testnet"
ETH = 10**18


async def test_account_native_transfer_pays_gas_used_times_gas_price_and_advances_the_nonce(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, 2 * ETH)
    adapter = alice.adapter
    # When Alice sends 1 coin to Bob
    unsigned = await alice.build("DETH_TEST", bob.address, ETH)
    assert unsigned.body["nonce"] == 0 and unsigned.fee_limit == 21_000 * adapter.gas_price
    tx_hash = await alice.submit(unsigned)
    height = await mine_block(EVM)
    # Then the fee is gas used x gas price, in the native coin, and the nonce moved on
    fee = 21_000 * adapter.gas_price
    assert await alice.balance("DETH_TEST") == 2 * ETH - ETH - fee
    assert await bob.balance("DETH_TEST") == ETH
    assert (await alice.build("DETH_TEST", bob.address, 1)).body["nonce"] == 1
    # And the block shows the transfer
    async with unit_of_work():
        block = await adapter.read_block(height)
    assert [(t.tx_hash, t.to_address, t.amount, t.fee, t.currency_id) for t in block.transfers] == [
        (tx_hash, bob.address, ETH, fee, "DETH_TEST")]


async def test_account_nonces_must_follow_each_other(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, ETH)
    first = await alice.build("DETH_TEST", bob.address, 1000)
    await alice.submit(first)
    # Building again counts the mempool: nonce 1; replaying a nonce-0 body with other content is refused
    assert (await alice.build("DETH_TEST", bob.address, 1000)).body["nonce"] == 1
    stale = dict(first.body, amount="2000")
    with pytest.raises(DomainError) as refused:
        async with unit_of_work():
            await alice.adapter.submit_transfer(body=stale, signature=alice.key.sign(
                devnet.signing_payload(EVM, stale)).signature)
    assert refused.value.code == "NONCE_MISMATCH"
    # The very same signed transfer again is idempotent
    assert await alice.submit(first) == await alice.submit(first)


async def test_a_token_transfer_fails_without_native_gas_and_succeeds_with_it(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, 500_000_000, currency_id="DUSD_TEST")  # 500 DUSD, no native coin
    with pytest.raises(DomainError) as refused:
        await alice.send("DUSD_TEST", bob.address, 100_000_000)
    assert refused.value.code == "INSUFFICIENT_GAS"
    # Given native coin for gas
    await fund(EVM, alice.address, ETH // 100)
    await alice.send("DUSD_TEST", bob.address, 100_000_000)
    await mine_block(EVM)
    assert await bob.balance("DUSD_TEST") == 100_000_000
    assert await alice.balance("DUSD_TEST") == 400_000_000
    assert await alice.balance("DETH_TEST") == ETH // 100 - 65_000 * alice.adapter.gas_price
    # And spending more than the balance (mempool included) is refused up front
    with pytest.raises(DomainError) as refused:
        await alice.send("DETH_TEST", bob.address, ETH)
    assert refused.value.code == "INSUFFICIENT_FUNDS"


async def test_a_submission_is_checked_in_one_statement_once_its_sender_is_locked(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, ETH)
    await alice.send("DETH_TEST", bob.address, 1000)  # the sender's account exists from here on
    unsigned = await alice.build("DETH_TEST", bob.address, 2000)
    # When a second transfer is submitted
    with statements_sent() as sent:
        tx_hash = await alice.submit(unsigned)
    # Then the sender is locked, what the submission checks is read in one statement (the same
    # transfer already there, the nonce, the mempool's promises, the balances), and it is written
    work = [s for s in sent if s not in ("BEGIN;", "COMMIT;")]
    assert len(work) == 3, work
    assert "FOR UPDATE" in work[0] and work[2].startswith("INSERT INTO devnet_transactions")
    stored = await DevnetTransaction.get(tx_hash=tx_hash)
    assert (stored.body, stored.nonce, stored.status, int(stored.amount)) == (unsigned.body, 1, "pending", 2000)
    assert int(stored.fee) == 21_000 * alice.adapter.gas_price and stored.submitted_at is not None
    # And the same transfer again is found by that statement: nothing more is written
    with statements_sent() as again:
        assert await alice.submit(unsigned) == tx_hash
    assert len([s for s in again if s not in ("BEGIN;", "COMMIT;")]) == 2


async def test_the_same_transfer_submitted_twice_at_once_is_one_transfer_both_times(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, ETH)
    await alice.send("DETH_TEST", bob.address, 1000)
    unsigned = await alice.build("DETH_TEST", bob.address, 2000)
    signature = alice.key.sign(unsigned.signing_payload).signature
    submitted = asyncio.Event()

    async def first() -> str:
        async with unit_of_work():
            tx_hash = await alice.adapter.submit_transfer(body=unsigned.body, signature=signature)
            submitted.set()
            await asyncio.sleep(0.3)  # still uncommitted while the second arrives
            return tx_hash

    async def second() -> str:
        await submitted.wait()
        async with unit_of_work():  # waits for the sender's lock, then finds the first's transfer
            return await alice.adapter.submit_transfer(body=unsigned.body, signature=signature)

    # When the very same signed transfer is submitted again while the first submission commits
    hashes = await asyncio.gather(first(), second())
    # Then both answer its hash (not NONCE_MISMATCH: the second counted the first in the mempool)
    assert hashes[0] == hashes[1]
    assert await DevnetTransaction.filter(tx_hash=hashes[0]).count() == 1
