"""The devnet chain (domain/networks/devnet_chain.py): the faucet and block production."""

from __future__ import annotations

import pytest

from core.unit_of_work import unit_of_work
from domain.errors import DomainError
from domain.networks import devnet_chain
from tests.support.wallets import Holder, fund, mine_block

UTXO = "devnet-utxo-testnet"


async def test_faucet_credits_any_address_in_the_next_block_and_blocks_chain(database):
    holder = Holder(UTXO)
    await fund(UTXO, holder.address, 1_000, mine=False)
    assert await holder.balance("DBTC_TEST") == 0  # still in the mempool
    async with unit_of_work():
        assert await devnet_chain.block_due(network_id=UTXO)
    first = await mine_block(UTXO)
    second = await mine_block(UTXO)
    assert await holder.balance("DBTC_TEST") == 1_000
    async with unit_of_work():
        a, b = await holder.adapter.read_block(first), await holder.adapter.read_block(second)
        assert not await devnet_chain.block_due(network_id=UTXO)
    assert b.parent_hash == a.hash and (len(a.transfers), len(b.transfers)) == (1, 0)
    # Bad faucet input is a clear 4xx
    for kwargs, code in (({"address": "nope", "amount": 1_000}, "INVALID_ADDRESS"),
                         ({"address": holder.address, "amount": 0}, "VALIDATION_ERROR"),
                         ({"address": holder.address, "amount": 1_000, "currency_id": "DETH_TEST"},
                          "CURRENCY_NETWORK_MISMATCH")):
        with pytest.raises(DomainError) as refused:
            async with unit_of_work():
                await devnet_chain.faucet(network_id=UTXO, **kwargs)
        assert refused.value.code == code and refused.value.status == 400
