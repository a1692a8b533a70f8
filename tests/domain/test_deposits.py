"""The chain watcher: deposits to workspace addresses, exactly once."""

from __future__ import annotations

import asyncio
import json

from core.settings import configure
from core.unit_of_work import unit_of_work
from domain import deposits
from domain.networks.registry import get_adapter
from domain.networks.solana_chain import local_chain
from models.deposits import ChainWatchState
from models.transactions import Transaction
from models.wallets import Wallet
from models.webhooks import WebhookEvent
from tests.support.wallets import (
    address_of,
    fund,
    mine_block,
    open_wallet,
    reload,
    send,
    vault_with_key,
    watch,
    workspace,
)

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18


async def test_a_transfer_to_a_workspace_address_becomes_one_final_deposit(broker):
    # Given a vault with a DETH wallet
    ws = await workspace()
    tv = await vault_with_key(ws)
    wallet = await open_wallet(tv, "DETH_TEST")
    address = await address_of(wallet)
    # When the faucet pays it and the watcher reads the block
    tx_hash = await fund(EVM, address, 3 * ETH)
    found = await watch(EVM)
    # Then one deposit exists, final, with the block and the absolute balance after it
    assert len(found) == 1
    deposit = await Transaction.get(wallet_id=wallet.id)
    assert (deposit.direction, deposit.status, int(deposit.amount), deposit.tx_hash) == ("deposit", "finished", 3 * ETH,
                                                                                         tx_hash)
    assert deposit.block_height == 1 and deposit.balance_version == 1 and deposit.seq == 1
    assert deposit.to_side["balance"]["total_atomic"] == str(3 * ETH)
    assert deposit.to_side["balance_version"] == 1 and deposit.to_side["external"] is False
    assert deposit.from_side["external"] is True and deposit.from_side["balance"] is None
    wallet = await reload(wallet)
    assert (int(wallet.total), wallet.block_height) == (3 * ETH, 1)
    # And a transaction.created webhook event carries it, sides and balance_version included
    event = await WebhookEvent.get(type="transaction.created")
    data = json.loads(event.payload)["data"]
    assert (data["id"], data["seq"], data["balance_version"]) == (str(deposit.id), 1, 1)
    assert data["to"]["balance"]["total_atomic"] == str(3 * ETH) and data["to"]["block_height"] == 1


async def test_a_block_read_twice_credits_once(broker):
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DBTC_TEST")
    await fund(UTXO, await address_of(wallet), 50_000)
    await watch(UTXO)
    # When the watcher's progress is lost and it reads every block again
    await ChainWatchState.filter(network=UTXO).update(scanned_height=0)
    assert await watch(UTXO) == []
    # And when a block's deposits are recorded again directly
    adapter = get_adapter(UTXO)
    async with unit_of_work():
        again = await deposits.record_block_deposits(adapter=adapter, block=await adapter.read_block(1))
    assert again == []
    assert await Transaction.all().count() == 1
    assert int((await reload(wallet)).total) == 50_000


async def test_racing_watchers_credit_once(broker):
    ws = await workspace()
    wallet = await open_wallet(await vault_with_key(ws), "DBTC_TEST")
    address = await address_of(wallet)
    for amount in (10_000, 20_000, 30_000):
        await fund(UTXO, address, amount, mine=False)
    await mine_block(UTXO)
    adapter = get_adapter(UTXO)
    async with unit_of_work():
        block = await adapter.read_block(1)

    async def record() -> int:
        async with unit_of_work():
            return len(await deposits.record_block_deposits(adapter=adapter, block=block))

    # When four workers record the same block at once, bypassing the watch-state lock
    counts = await asyncio.gather(*(record() for _ in range(4)))
    # Then each transfer became exactly one deposit and the balance moved once
    assert sum(counts) == 3
    assert await Transaction.all().count() == 3
    wallet = await reload(wallet)
    assert int(wallet.total) == 60_000
    await wallet.fetch_related("address")
    assert wallet.address.balance_version == 3
    # And with the watch-state lock, two scans of the network do the work once
    scans = await asyncio.gather(watch(UTXO), watch(UTXO))
    assert sum(len(s) for s in scans) == 0 and (await ChainWatchState.get(network=UTXO)).scanned_height == 1


async def test_token_and_native_deposits_share_the_address_and_its_balance_version(broker):
    ws = await workspace()
    tv = await vault_with_key(ws)
    token = await open_wallet(tv, "DUSD_TEST")  # also opens the native wallet
    native = await Wallet.get(vault_id=tv.vault.id, currency_id="DETH_TEST")
    address = await address_of(token)
    assert await address_of(native) == address
    await fund(EVM, address, 5_000_000, currency_id="DUSD_TEST", mine=False)
    await fund(EVM, address, ETH, mine=False)
    await mine_block(EVM)
    found = await watch(EVM)
    assert sorted((d.currency_id, d.balance_version) for d in found) == [("DETH_TEST", 2), ("DUSD_TEST", 1)]
    assert int((await reload(token)).total) == 5_000_000 and int((await reload(native)).total) == ETH


async def test_transfers_the_workspace_has_no_wallet_for_are_not_credited(broker):
    ws = await workspace()
    tv = await vault_with_key(ws)
    native = await open_wallet(tv, "DETH_TEST")
    address = await address_of(native)
    # A token the vault has no wallet for, and a payment to a stranger, are not deposits
    await fund(EVM, address, 1_000_000, currency_id="DUSD_TEST", mine=False)
    await fund(EVM, "0x" + "ab" * 20, ETH, mine=False)
    await mine_block(EVM)
    assert await watch(EVM) == []
    assert (await ChainWatchState.get(network=EVM)).scanned_height == 1


async def test_a_transfer_between_two_vaults_is_a_deposit_naming_the_sending_vault(broker):
    ws = await workspace()
    first, second = await vault_with_key(ws, name="Hot"), await vault_with_key(ws, name="Cold")
    source = await open_wallet(first, "DETH_TEST")
    target = await open_wallet(second, "DETH_TEST")
    await fund(EVM, await address_of(source), ETH)
    await send(first, "DETH_TEST", await address_of(target), ETH // 2)
    await mine_block(EVM)
    found = await watch(EVM)
    incoming = [d for d in found if d.wallet_id == target.id]  # type: ignore[attr-defined]
    assert len(incoming) == 1
    assert incoming[0].from_side["external"] is False and incoming[0].from_side["vault_name"] == "Hot"


async def test_deposits_wait_for_the_confirmations_the_network_requires(broker, settings, tmp_path):
    # Given a registry (CURRENCIES_FILE) where the UTXO testnet needs 3 confirmations
    from config import CURRENCIES_FILE

    document = json.loads(CURRENCIES_FILE.read_text())
    for network in document["networks"]:
        if network["id"] == UTXO:
            network["confirmations"] = 3
    path = tmp_path / "currencies.json"
    path.write_text(json.dumps(document))
    configure(settings.with_overrides(currencies_file=path))
    try:
        ws = await workspace()
        wallet = await open_wallet(await vault_with_key(ws), "DBTC_TEST")
        await fund(UTXO, await address_of(wallet), 10_000)
        assert await watch(UTXO) == []
        await mine_block(UTXO)
        assert await watch(UTXO) == []
        # The scheduled producer keeps mining while confirmations are missing
        from domain.networks import devnet_chain

        async with unit_of_work():
            assert await devnet_chain.block_due(network_id=UTXO)
        await mine_block(UTXO)
        assert [d.block_height for d in await watch(UTXO)] == [1]
        async with unit_of_work():
            assert not await devnet_chain.block_due(network_id=UTXO)
    finally:
        configure(settings)


async def test_a_real_networks_first_read_starts_below_its_final_height_not_at_genesis(broker):
    # Given a real network (the local Solana chain) far past the watcher's lookback, never read yet
    chain = local_chain("solana-local")
    await ChainWatchState.filter(network="solana-local").delete()
    chain.advance(deposits.DEFAULT_WATCH_LOOKBACK_BLOCKS + 200)
    final = await deposits.final_height(get_adapter("solana-local"))
    # When the watcher reads it the first time
    async with unit_of_work():
        scanned = await deposits.scan_next_block(network_id="solana-local")
    # Then it starts the lookback below the final height, not at slot 1
    assert scanned is not None and scanned.height == final - deposits.DEFAULT_WATCH_LOOKBACK_BLOCKS + 1
    # And a devnet is still read from its beginning
    await ChainWatchState.filter(network="devnet-evm-testnet").delete()
    async with unit_of_work():
        first = await deposits.scan_next_block(network_id="devnet-evm-testnet")
    assert first is None or first.height == 1
