"""Running the built-in devnet chains: block production and the faucet.

:func:`produce_block` is what the scheduled ``devnet.produce_blocks`` actor (or a test) calls:
it mines the mempool in submission order. :func:`faucet` credits any address from nowhere, for
development and tests.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from core import clock
from domain.currencies import Currency, registry
from domain.errors import ValidationFailed
from domain.networks.addresses import InvalidAddress
from domain.networks.devnet import lock_chain
from domain.networks.registry import get_adapter
from models.devnet import DevnetBlock, DevnetChain, DevnetTransaction

#: Scheduled actor: mine devnet blocks (every DEVNET_BLOCK_INTERVAL_SECONDS).
PRODUCE_BLOCKS = "devnet.produce_blocks"

#: Transactions mined into one block at most; the rest wait for the next one.
MAX_BLOCK_TRANSACTIONS = 2000


def devnet_network_ids() -> list[str]:
    return [n.id for n in registry().networks.values() if n.adapter == "devnet"]


def devnet_adapter(network_id: str) -> Any:
    """The devnet adapter of ``network_id`` (400 when the network is not a devnet)."""
    adapter = get_adapter(network_id)
    if adapter.network.adapter != "devnet":
        raise ValidationFailed(f"{network_id} is not a devnet network", code="NOT_A_DEVNET",
                               details={"network": network_id})
    return adapter


async def produce_block(*, network_id: str) -> int:
    """Mine the next block of ``network_id`` from the mempool (submission order); returns its height.

    The head row lock serializes producers of one network; a transaction that cannot be
    executed any more is dropped from the mempool instead of being mined.
    """
    adapter = devnet_adapter(network_id)
    chain = await lock_chain(network_id)
    height = chain.height + 1
    pending = await DevnetTransaction.filter(network=network_id, status="pending").order_by("id").limit(
        MAX_BLOCK_TRANSACTIONS
    )
    index = 0
    hashes: list[str] = []
    for tx in pending:
        if await adapter.apply(tx, height=height):
            tx.block_height, tx.block_index = height, index
            index += 1
            hashes.append(tx.tx_hash)
        await tx.save()
    block_hash = hashlib.sha256(
        chain.head_hash.encode() + str(height).encode() + "".join(hashes).encode()
    ).hexdigest()
    await DevnetBlock.create(network=network_id, height=height, hash=block_hash, parent_hash=chain.head_hash,
                             produced_at=clock.now(), tx_count=index)
    chain.height, chain.head_hash = height, block_hash
    if index:
        chain.last_nonempty_height = height
    await chain.save()
    return height


async def block_due(*, network_id: str) -> bool:
    """Whether the scheduled producer should mine: transactions wait, or recent ones still need
    confirmations (empty blocks are mined only for that, so an idle devnet stays small)."""
    if await DevnetTransaction.exists(network=network_id, status="pending"):
        return True
    chain = await DevnetChain.get_or_none(network=network_id)
    if chain is None or chain.last_nonempty_height == 0:
        return False
    needed = devnet_adapter(network_id).confirmations_required()
    return chain.height - chain.last_nonempty_height + 1 < needed


async def faucet(*, network_id: str, address: str, amount: int, currency_id: str | None = None) -> str:
    """Credit ``amount`` (atomic units) of ``currency_id`` (default: the native coin) to any address.

    The credit is a mempool transaction from the faucet address: it lands in the next block and
    is seen by the chain watcher like any incoming transfer. Returns its transaction hash.
    """
    adapter = devnet_adapter(network_id)
    currency: Currency = registry().currency(currency_id) if currency_id else registry().native_currency(network_id)
    if currency.network.id != network_id:
        raise ValidationFailed(f"{currency.id} is not a currency of {network_id}", code="CURRENCY_NETWORK_MISMATCH",
                               details={"field": "currency_id"})
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ValidationFailed("amount must be a positive number of atomic units", code="VALIDATION_ERROR",
                               details={"field": "amount", "reason": "must be positive"})
    try:
        to_address = adapter.normalize_address(address)
    except InvalidAddress as exc:
        raise ValidationFailed(f"address: {exc}", code="INVALID_ADDRESS",
                               details={"field": "address", "reason": str(exc)}) from None
    return await adapter.faucet_transaction(to_address=to_address, currency=currency, amount=amount,
                                            salt=os.urandom(16))
