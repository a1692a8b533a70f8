"""The UTXO devnet (domain/networks/devnet_utxo.py): coin selection, change, dust, double spends."""

from __future__ import annotations

import pytest

from core.unit_of_work import unit_of_work
from domain.errors import DomainError
from domain.networks.devnet_utxo import vsize
from models.devnet import DevnetUtxo
from tests.support.wallets import Holder, fund, mine_block

UTXO = "devnet-utxo-testnet"


async def test_utxo_coin_selection_makes_change_and_pays_fee_by_sat_per_vbyte(database):
    alice, bob = Holder(UTXO), Holder(UTXO)
    for amount in (50_000, 30_000, 20_000):
        await fund(UTXO, alice.address, amount, mine=False)
    await mine_block(UTXO)
    # When Alice pays 60,000 sat at 5 sat/vB
    unsigned = await alice.build("DBTC_TEST", bob.address, 60_000, fee_rate=5)
    # Then the two largest outputs are selected, with change back to Alice
    assert [int(i["amount"]) for i in unsigned.body["inputs"]] == [50_000, 30_000]
    fee = vsize(2, 2) * 5
    assert unsigned.body["outputs"] == [{"address": bob.address, "amount": "60000"},
                                        {"address": alice.address, "amount": str(80_000 - 60_000 - fee)}]
    tx_hash = await alice.submit(unsigned)
    height = await mine_block(UTXO)
    assert await bob.balance("DBTC_TEST") == 60_000
    assert await alice.balance("DBTC_TEST") == 100_000 - 60_000 - fee
    # And the block reports one transfer to Bob: the change is not a transfer
    async with unit_of_work():
        block = await alice.adapter.read_block(height)
    assert [(t.tx_hash, t.to_address, t.amount, t.fee) for t in block.transfers] == [
        (tx_hash, bob.address, 60_000, fee)]


async def test_utxo_change_below_dust_goes_to_the_fee(database):
    alice, bob = Holder(UTXO), Holder(UTXO)
    await fund(UTXO, alice.address, 10_000)
    fee_with_change = vsize(1, 2) * 2
    unsigned = await alice.build("DBTC_TEST", bob.address, 10_000 - fee_with_change - 100, fee_rate=2)
    assert len(unsigned.body["outputs"]) == 1
    assert unsigned.fee_limit == fee_with_change + 100


async def test_utxo_inputs_cannot_be_spent_twice(database):
    alice, bob, carol = Holder(UTXO), Holder(UTXO), Holder(UTXO)
    await fund(UTXO, alice.address, 10_000)
    first = await alice.build("DBTC_TEST", bob.address, 5_000)
    second = await alice.build("DBTC_TEST", carol.address, 5_000)  # built from the same output
    await alice.submit(first)
    with pytest.raises(DomainError) as refused:
        await alice.submit(second)
    assert refused.value.code == "DOUBLE_SPEND"
    # And nothing is left to select until the first one is mined
    with pytest.raises(DomainError) as refused:
        await alice.build("DBTC_TEST", carol.address, 1_000)
    assert refused.value.code == "INSUFFICIENT_FUNDS"
    await mine_block(UTXO)
    assert await DevnetUtxo.filter(address=alice.address, spent_height__isnull=True).count() == 1  # the change
