"""Devnet block production (enqueued by the scheduler every DEVNET_BLOCK_INTERVAL_SECONDS)."""

from __future__ import annotations

import logging

from core.jobs import actor
from core.unit_of_work import unit_of_work
from domain.networks import devnet_chain
from domain.networks.devnet_chain import PRODUCE_BLOCKS

logger = logging.getLogger(__name__)


@actor(PRODUCE_BLOCKS, max_retries=0)
async def produce_blocks(network_id: str | None = None, force: bool = False) -> dict[str, int]:
    """Mine a block on each devnet network that has work (or on ``network_id`` only).

    A block is due when the mempool holds transactions or recent ones still need
    confirmations; ``force`` mines one regardless (tests, ``custody faucet --mine``). No retries:
    the next tick is the retry.
    """
    produced: dict[str, int] = {}
    for network in [network_id] if network_id else devnet_chain.devnet_network_ids():
        async with unit_of_work():
            if force or await devnet_chain.block_due(network_id=network):
                produced[network] = await devnet_chain.produce_block(network_id=network)
    if produced:
        logger.info("devnet: produced %s", produced)
    return produced
