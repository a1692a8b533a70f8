"""Devnet block production (enqueued by the scheduler every DEVNET_BLOCK_INTERVAL_SECONDS)."""

from __future__ import annotations

import logging

from custody.jobs import actor
from custody.unit_of_work import unit_of_work
from domain.networks import devnet

logger = logging.getLogger(__name__)

PRODUCE_BLOCKS = "devnet.produce_blocks"


@actor(PRODUCE_BLOCKS, max_retries=0)
async def produce_blocks(network_id: str | None = None, force: bool = False) -> dict[str, int]:
    """Mine a block on each devnet network that has work (or on ``network_id`` only).

    A block is due when the mempool holds transactions or recent ones still need
    confirmations; ``force`` mines one regardless (tests, ``custody faucet --mine``). No retries:
    the next tick is the retry.
    """
    produced: dict[str, int] = {}
    for network in [network_id] if network_id else devnet.devnet_network_ids():
        async with unit_of_work():
            if force or await devnet.block_due(network_id=network):
                produced[network] = await devnet.produce_block(network_id=network)
    if produced:
        logger.info("devnet: produced %s", produced)
    return produced
