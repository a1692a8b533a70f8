"""``custody faucet``: credit any address of a devnet network (development and tests).

    custody faucet --network devnet-evm-testnet --address 0x... --amount 1.5
    custody faucet --network devnet-evm-testnet --address 0x... --amount 100 --currency DUSD_TEST
    custody faucet --network devnet-utxo-testnet --address tdvb1... --amount 50000 --atomic --mine

The local Solana chain of ``custody dev`` (``solana-local``; its ``SOLANA_LOCAL_URL`` is set for
the children of ``custody dev``, pass it when running the faucet from another shell) is credited
the same way: SOL by an airdrop, an SPL token by minting it to the address's token account::

    SOLANA_LOCAL_URL=http://127.0.0.1:PORT custody faucet --network solana-local --address <base58> --amount 2

The local EVM of ``custody dev`` (``evm-local``, ``EVM_LOCAL_URL``, found the same way) is
credited from its funded development account: ETH by a transfer, the test ERC-20
(``USDC_ETH_LOCAL``) by minting it; the transaction is mined before the command returns::

    custody faucet --network evm-local --address 0x... --amount 2
    custody faucet --network evm-local --address 0x... --amount 100 --currency USDC_ETH_LOCAL

``--amount`` is in whole units of the currency (``--atomic``: smallest units); ``--currency``
defaults to the network's native coin. The credit lands in the next block (the scheduler mines
every DEVNET_BLOCK_INTERVAL_SECONDS); ``--mine`` mines one right away. When DATABASE_URL is unset,
the embedded development database is used, like ``custody bootstrap`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import sys
from pathlib import Path
from typing import Any

from solders.pubkey import Pubkey

from core.settings import configure, get_settings
from core.unit_of_work import unit_of_work
from custody.embedded import ensure_servers
from custody.wiring import close_database, open_database
from domain.currencies import parse_amount, registry
from domain.errors import DomainError, ValidationFailed
from domain.networks import devnet_chain, evm, evm_dev
from domain.networks.addresses import InvalidAddress
from domain.networks.evm_rpc import HttpEvmRpc, RpcError, to_int
from domain.networks.registry import get_adapter


async def faucet_command(*, network: str, address: str, amount: str, currency: str | None = None,
                         atomic: bool = False, mine: bool = False) -> dict[str, Any]:
    """Credit the address (the database must be open); returns what was done.

    Raises :class:`domain.errors.DomainError` (with its code) for bad input, ValueError for an
    amount that is not a number of the currency's units.
    """
    chosen = registry().currency(currency) if currency else registry().native_currency(network)
    if atomic:
        if not amount.isdigit():
            raise ValueError(f"--amount {amount!r} must be a whole number of atomic units with --atomic")
        atomic_amount = int(amount)
    else:
        atomic_amount = parse_amount(amount, chosen.decimals)
    if registry().network(network).adapter == "evm":
        return await _evm_faucet(network=network, address=address, amount=atomic_amount, currency_id=chosen.id)
    if registry().network(network).adapter == "solana":
        return await _solana_faucet(network=network, address=address, amount=atomic_amount, currency_id=chosen.id,
                                    mine=mine)
    async with unit_of_work():
        tx_hash = await devnet_chain.faucet(network_id=network, address=address, amount=atomic_amount, currency_id=chosen.id)
    height = None
    if mine:
        async with unit_of_work():
            height = await devnet_chain.produce_block(network_id=network)
    return {"network": network, "address": address, "currency_id": chosen.id, "amount_atomic": str(atomic_amount),
            "tx_hash": tx_hash, "mined_block_height": height}


async def _solana_faucet(*, network: str, address: str, amount: int, currency_id: str, mine: bool) -> dict[str, Any]:
    """Credit an address of a local Solana network (LiteSVM: this process's chain, or custody dev's)."""
    if registry().network(network).params.get("local") is not True and not get_settings().solana_local_chain:
        raise ValidationFailed(f"{network} is a real cluster: the faucet credits devnets and solana-local only",
                               code="FAUCET_NOT_AVAILABLE", details={"network": network})
    settings = get_settings()
    if not settings.solana_local_url and not settings.solana_local_chain:
        # A chain of this process would vanish with it: crediting it would report a deposit that
        # custody dev's chain never sees. Find custody dev's chain, or say how to.
        url = running_solana_local_url(settings.data_dir)
        if url is None:
            raise ValidationFailed("the local Solana chain lives in custody dev: start it, or pass the "
                                   "SOLANA_LOCAL_URL it printed", code="FAUCET_NOT_AVAILABLE",
                                   details={"network": network})
        configure(settings.with_overrides(solana_local_url=url))
    chain: Any = getattr(get_adapter(network), "chain")
    currency = registry().currency(currency_id)
    try:
        owner = Pubkey.from_string(address)
    except ValueError:
        raise ValidationFailed("not a Solana address", code="INVALID_ADDRESS", details={"field": "address"}) from None
    if currency.contract is None:
        credited = chain.airdrop(owner, amount)
    else:
        credited = chain.mint_tokens(owner, Pubkey.from_string(currency.contract), amount, decimals=currency.decimals)
    tx_hash = await credited if inspect.isawaitable(credited) else credited
    slot = None
    if mine:
        advanced = chain.advance(1)
        slot = await advanced if inspect.isawaitable(advanced) else advanced
    return {"network": network, "address": address, "currency_id": currency_id, "amount_atomic": str(amount),
            "tx_hash": tx_hash, "mined_block_height": slot}


async def _evm_faucet(*, network: str, address: str, amount: int, currency_id: str) -> dict[str, Any]:
    """Credit an address of custody dev's local EVM from its development account (evm_dev)."""
    if registry().network(network).params.get("local") is not True:
        raise ValidationFailed(f"{network} is a real network: the faucet credits devnets and local chains only",
                               code="FAUCET_NOT_AVAILABLE", details={"network": network})
    settings = get_settings()
    url = settings.evm_local_url or running_local_url(settings.data_dir, EVM_LOCAL_URL_FILE)
    if url is None:
        # A chain of this process would vanish with it (see the Solana case above).
        raise ValidationFailed("the local EVM lives in custody dev: start it, or pass the EVM_LOCAL_URL it printed",
                               code="FAUCET_NOT_AVAILABLE", details={"network": network})
    try:
        recipient = evm.parse_address(address)
    except InvalidAddress as exc:
        raise ValidationFailed(f"not an Ethereum address: {exc}", code="INVALID_ADDRESS",
                               details={"field": "address"}) from None
    currency = registry().currency(currency_id)
    try:
        tx_hash = await evm_dev.faucet(HttpEvmRpc(url), address=recipient, amount=amount, token=currency.contract)
    except RpcError as exc:
        raise ValidationFailed(f"the local EVM refused the faucet's transaction: {exc.message}",
                               code="FAUCET_FAILED", details={"network": network}) from None
    height = to_int(await HttpEvmRpc(url).request("eth_blockNumber"))
    return {"network": network, "address": recipient, "currency_id": currency_id, "amount_atomic": str(amount),
            "tx_hash": tx_hash, "mined_block_height": height}


#: Where ``custody dev`` leaves its local EVM's URL, in its data folder (like the Solana one).
EVM_LOCAL_URL_FILE = "evm-local.url"


#: Where ``custody dev`` leaves its local Solana chain's URL, in its data folder, for the tools
#: started from another shell (``custody faucet``).
SOLANA_LOCAL_URL_FILE = "solana-local.url"


def running_solana_local_url(data_dir: Path) -> str | None:
    """The URL ``custody dev`` wrote for its local Solana chain in ``data_dir`` (None: not running)."""
    return running_local_url(data_dir, SOLANA_LOCAL_URL_FILE)


def running_local_url(data_dir: Path, name: str) -> str | None:
    """The URL ``custody dev`` wrote in ``data_dir`` under ``name`` (None: not running)."""
    try:
        url = (Path(data_dir) / name).read_text().strip()
    except OSError:
        return None
    return url or None


def cmd_faucet(args: argparse.Namespace) -> int:
    settings = get_settings()
    servers = None
    if not settings.database_url:
        # Only PostgreSQL is needed: a placeholder Redis URL keeps the embedded Redis from starting.
        servers = ensure_servers(database_url=None, redis_url=settings.redis_url or "redis://unused",
                                 data_dir=settings.data_dir)
        settings = configure(settings.with_overrides(database_url=servers.database_url))

    async def run() -> dict[str, Any]:
        await open_database(settings)
        try:
            return await faucet_command(network=args.network, address=args.address, amount=args.amount,
                                        currency=args.currency, atomic=args.atomic, mine=args.mine)
        finally:
            await close_database()

    try:
        result = asyncio.run(run())
    except (DomainError, ValueError) as exc:
        code = getattr(exc, "code", "INVALID_AMOUNT")
        print(f"custody faucet: {code}: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    finally:
        if servers is not None:
            servers.stop()
    print(json.dumps(result, indent=2))
    return 0
