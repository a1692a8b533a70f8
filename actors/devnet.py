"""Devnet block production (enqueued by the scheduler every DEVNET_BLOCK_INTERVAL_SECONDS)."""

from __future__ import annotations

import logging

from core.jobs import actor
from core.unit_of_work import unit_of_work
from domain.networks import devnet_chain
from domain.networks.devnet_chain import PRODUCE_BLOCKS

logger = logging.getLogger(__name__)


#: A failed run (PostgreSQL restarting, a lock timeout) is retried a few times within about one
#: block interval instead of going straight to the dead letters; a tick never waits on another.
@actor(PRODUCE_BLOCKS, max_retries=3, min_backoff=200, max_backoff=2000)
async def produce_blocks(network_id: str | None = None, force: bool = False) -> dict[str, int]:
    """Mine a block on each devnet network that has work (or on ``network_id`` only).

    A block is due when the mempool holds transactions or recent ones still need
    confirmations; ``force`` mines one regardless (tests, ``custody faucet --mine``). One
    network's failure does not stop the others; the run then fails and is retried.
    """
    produced: dict[str, int] = {}
    failed: list[str] = []
    for network in [network_id] if network_id else devnet_chain.devnet_network_ids():
        try:
            async with unit_of_work():
                if force or await devnet_chain.block_due(network_id=network):
                    produced[network] = await devnet_chain.produce_block(network_id=network)
        except Exception:  # noqa: BLE001 - the others still get their block; the retry covers this one
            logger.warning("devnet: block production failed on %s", network, exc_info=True)
            failed.append(network)
    if produced:
        logger.info("devnet: produced %s", produced)
    if failed:
        raise RuntimeError(f"devnet: block production failed on {', '.join(failed)}")
    return produced
