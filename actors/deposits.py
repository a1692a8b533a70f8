"""The chain watcher (enqueued by the scheduler every CHAIN_WATCH_INTERVAL_SECONDS)."""

from __future__ import annotations

import logging
import uuid

from core.jobs import actor, command_actor
from core.outbox import Command
from core.settings import get_settings
from core.unit_of_work import unit_of_work
from domain import deposits
from domain.deposits import CREDIT_HISTORY, WATCH

logger = logging.getLogger(__name__)


@actor(WATCH, max_retries=0)
async def watch(network_id: str | None = None, max_blocks: int | None = None) -> dict[str, int]:
    """Read the new final transfers of every network (or of ``network_id``) into deposits.

    One unit of work per block (or per batch of watched accounts on an address-watched network:
    domain.deposits.scan_addresses): a crash loses at most the unit in progress, which the next
    run reads again (deposits are exactly-once by their chain reference). A failing network is
    logged and skipped so the others keep going; the next tick retries it. A network halted by a
    reorganization deeper than finality reads nothing (domain.deposits; ``custody watch``).
    """
    limit = max_blocks or get_settings().chain_watch_batch_blocks
    scanned: dict[str, int] = {}
    for network in [network_id] if network_id else await deposits.watched_networks():
        try:
            for _ in range(limit):
                async with unit_of_work():
                    block = await deposits.scan_next_block(network_id=network)
                if block is None:
                    break
                scanned[network] = block.height
        except Exception:  # noqa: BLE001 - one unreachable network must not stop the others
            logger.exception("deposits.watch: network %s failed", network)
            if network_id:
                raise
    return scanned


@command_actor(CREDIT_HISTORY)
async def credit_history(*, command: Command, wallet_id: str) -> None:
    """A wallet just opened: credit what its address received before (domain.deposits.credit_history)."""
    await deposits.credit_history(wallet_id=uuid.UUID(wallet_id))
