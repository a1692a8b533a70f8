"""Devnet block production by its scheduled actor."""

from __future__ import annotations

import asyncio

from actors.devnet import PRODUCE_BLOCKS
from domain.networks import devnet, devnet_chain
from models.devnet import DevnetBlock
from tests.support.wallets import fund

UTXO = "devnet-utxo-testnet"


async def _produce(broker, worker, **kwargs) -> None:
    await asyncio.to_thread(broker.get_actor(PRODUCE_BLOCKS).send, **kwargs)
    await worker.drain()


async def test_the_actor_mines_networks_with_pending_transactions_only(broker, worker):
    holder_address = devnet.faucet_address(devnet_chain.devnet_adapter(UTXO))
    await fund(UTXO, holder_address, 1_000, mine=False)
    # When the scheduled actor runs
    await _produce(broker, worker)
    # Then only the network with a pending transaction got a block
    assert await DevnetBlock.filter(network=UTXO).count() == 1
    assert await DevnetBlock.exclude(network=UTXO).count() == 0
    # An idle devnet gets no empty blocks, unless forced (tests, custody faucet --mine)
    await _produce(broker, worker)
    assert await DevnetBlock.all().count() == 1
    await _produce(broker, worker, network_id=UTXO, force=True)
    assert await DevnetBlock.filter(network=UTXO).count() == 2
