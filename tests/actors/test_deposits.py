"""The chain watcher actor."""

from __future__ import annotations

import asyncio

from actors.deposits import WATCH
from models.deposits import ChainWatchState
from models.transactions import Transaction
from tests.support.wallets import address_of, fund, open_wallet, vault_with_key, workspace

EVM = "devnet-evm-testnet"


async def test_the_watcher_reads_every_network_and_records_deposits(broker, worker):
    wallet = await open_wallet(await vault_with_key(await workspace()), "DETH_TEST")
    await fund(EVM, await address_of(wallet), 10**18)
    await fund(EVM, await address_of(wallet), 10**18)
    # When the scheduled watcher runs (twice: the second run has nothing new)
    for _ in range(2):
        await asyncio.to_thread(broker.get_actor(WATCH).send)
        await worker.drain()
    # Then both blocks became deposits, once
    assert await Transaction.filter(wallet_id=wallet.id).count() == 2
    assert (await ChainWatchState.get(network=EVM)).scanned_height == 2
    # And the networks without blocks are tracked at height 0
    assert await ChainWatchState.filter(scanned_height=0).count() == 3
