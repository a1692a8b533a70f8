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
    assert deposit.block_height == 1 and deposit.balance_version == 1 and deposit.seq is not None
    assert deposit.to_side["balance"]["total_atomic"] == str(3 * ETH)
    assert deposit.to_side["balance_version"] == 1 and deposit.to_side["external"] is False
    assert deposit.from_side["external"] is True and deposit.from_side["balance"] is None
    wallet = await reload(wallet)
    assert (int(wallet.total), wallet.block_height) == (3 * ETH, 1)
    # And a transaction.created webhook event carries it, sides and balance_version included
    event = await WebhookEvent.get(type="transaction.created")
    data = json.loads(event.payload)["data"]
    assert (data["id"], data["seq"], data["balance_version"]) == (str(deposit.id), deposit.seq, 1)
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


async def test_a_real_networks_first_read_starts_below_its_final_height_not_at_genesis(broker, settings, tmp_path):
    # Given a real block-read network (evm-local, py-evm in process) far past the watcher's
    # lookback (5 blocks in this registry), never read yet
    from config import CURRENCIES_FILE
    from domain.networks.evm_local import reset_local_node
    from tests.support.evm import evm_enabled

    document = json.loads(CURRENCIES_FILE.read_text())
    for network in document["networks"]:
        if network["id"] == "evm-local":
            network["params"]["watch_lookback_blocks"] = 5
    path = tmp_path / "currencies.json"
    path.write_text(json.dumps(document))
    configure(settings.with_overrides(currencies_file=path))
    try:
        with evm_enabled():
            reset_local_node("evm-local").mine(20)
            final = await deposits.final_height(get_adapter("evm-local"))
            # When the watcher reads it the first time
            async with unit_of_work():
                scanned = await deposits.scan_next_block(network_id="evm-local")
            # Then it starts the lookback below the final height, not at block 1
            assert scanned is not None and scanned.height == final - 5 + 1
    finally:
        configure(settings)
    # And a devnet is still read from its beginning
    await ChainWatchState.filter(network="devnet-evm-testnet").delete()
    async with unit_of_work():
        first = await deposits.scan_next_block(network_id="devnet-evm-testnet")
    assert first is None or first.height == 1


async def test_a_token_sent_before_its_wallet_opened_is_credited_once_when_it_opens(worker):
    # Given a vault with a DETH wallet, and tDUSD sent to its address before it has a tDUSD wallet
    ws = await workspace()
    tv = await vault_with_key(ws)
    address = await address_of(await open_wallet(tv, "DETH_TEST"))
    early = await fund(EVM, address, 7_000_000, currency_id="DUSD_TEST")
    # (the watcher read that block and credited nothing: there was no wallet for it)
    assert [d for d in await watch(EVM) if d.currency_id == "DUSD_TEST"] == []
    # When the tDUSD wallet opens (its command runs on the worker)
    token = await open_wallet(tv, "DUSD_TEST")
    await worker.drain()
    # Then what the address held is credited: the transfer itself, as one deposit
    deposit = await Transaction.get(wallet_id=token.id)
    assert (deposit.direction, deposit.tx_hash, int(deposit.amount), deposit.block_height) == (
        "deposit", early, 7_000_000, 1)
    assert int((await reload(token)).total) == 7_000_000
    # And exactly once: the command again, the watcher again, then a later transfer the watcher credits
    async with unit_of_work():
        assert await deposits.credit_history(wallet_id=token.id) == []
    assert await watch(EVM) == []
    await fund(EVM, address, 1_000_000, currency_id="DUSD_TEST")
    assert [int(d.amount) for d in await watch(EVM)] == [1_000_000]
    assert int((await reload(token)).total) == 8_000_000 and await Transaction.filter(wallet_id=token.id).count() == 2


async def test_a_utxo_wallet_opened_on_a_paid_address_is_credited_with_the_outputs_it_received(broker):
    # Given a payment to the address a vault's DBTC wallet will have, read by the watcher first
    ws = await workspace()
    tv = await vault_with_key(ws)
    address = get_adapter(UTXO).address_from_public_key(tv.public_key)
    paid = await fund(UTXO, address, 50_000)
    await watch(UTXO)
    # When the wallet opens and its history is credited
    wallet = await open_wallet(tv, "DBTC_TEST")
    assert await address_of(wallet) == address
    async with unit_of_work():
        credited = await deposits.credit_history(wallet_id=wallet.id)
    # Then the payment is its deposit, once
    assert [(d.tx_hash, int(d.amount)) for d in credited] == [(paid, 50_000)]
    async with unit_of_work():
        assert await deposits.credit_history(wallet_id=wallet.id) == []
    assert int((await reload(wallet)).total) == 50_000


async def test_usdc_fauceted_on_solana_local_before_the_usdc_wallet_opened_is_credited_once(broker, settings):
    # Given a vault with a SOL wallet on the local Solana chain, which the watcher reads
    from custody.faucet import faucet_command

    configure(settings.with_overrides(solana_local_chain=True))  # the faucet credits this process's chain
    try:
        ws = await workspace()
        tv = await vault_with_key(ws)
        address = await address_of(await open_wallet(tv, "SOL_LOCAL"))
        await watch("solana-local")
        # When 100 USDC are fauceted to the address before its USDC wallet exists, and the watcher reads on
        fauceted = await faucet_command(network="solana-local", address=address, amount="100",
                                        currency="USDC_SOL_LOCAL", mine=True)
        assert [d for d in await watch("solana-local") if d.currency_id == "USDC_SOL_LOCAL"] == []
        # And the USDC wallet opens
        usdc = await open_wallet(tv, "USDC_SOL_LOCAL")
        async with unit_of_work():
            credited = await deposits.credit_history(wallet_id=usdc.id)
        # Then the mint to its token account is one deposit of 100 USDC, from the token account's history
        assert [(d.tx_hash, int(d.amount), d.currency_id) for d in credited] == [
            (fauceted["tx_hash"], 100_000_000, "USDC_SOL_LOCAL")]
        # And never again: the command once more, the watcher once more
        async with unit_of_work():
            assert await deposits.credit_history(wallet_id=usdc.id) == []
        assert await watch("solana-local") == []
        assert int((await reload(usdc)).total) == 100_000_000
    finally:
        configure(settings)


async def test_solana_deposits_are_found_per_watched_address_and_credited_once_across_polls_and_restarts(
        broker, settings, tmp_path, monkeypatch):
    from solders.pubkey import Pubkey
    from solders.token.associated import get_associated_token_address

    from domain.currencies import registry
    from domain.networks import registry as network_registry
    from models.deposits import ChainAddressCursor
    from tests.support.withdrawals import confirmations_required

    sol, usdc = 10**9, 10**6
    network = "solana-local"
    chain = local_chain(network)

    def no_blocks(slot: int) -> None:
        raise AssertionError("the watcher reads addresses, never whole blocks")

    monkeypatch.setattr(chain, "block", no_blocks)
    with confirmations_required(settings, tmp_path, network, 3):
        # Given a vault with SOL and USDC wallets on the local Solana chain (3 confirmations here)
        tv = await vault_with_key(await workspace())
        sol_wallet = await open_wallet(tv, "SOL_LOCAL")
        usdc_wallet = await open_wallet(tv, "USDC_SOL_LOCAL")
        address = await address_of(sol_wallet)
        owner = Pubkey.from_string(address)
        mint = Pubkey.from_string(registry().currency("USDC_SOL_LOCAL").contract or "")
        token_account = str(get_associated_token_address(owner, mint))
        # When SOL arrives, then USDC whose transaction creates the token account, then USDC minted
        # straight to the token account (that transaction does not name the address), and the
        # watcher polls while only the SOL's slot is final
        airdrop = chain.airdrop(owner, 2 * sol)
        created = chain.mint_tokens(owner, mint, 100 * usdc, decimals=6)
        direct = chain.mint_tokens(owner, mint, 50 * usdc, decimals=6, create_account=False)
        found = await watch(network)
        # Then the SOL is credited, and nothing unfinal
        assert [(d.tx_hash, d.currency_id, int(d.amount)) for d in found] == [(airdrop, "SOL_LOCAL", 2 * sol)]
        # And the watcher keeps one cursor per watched account (the address and its token account),
        # neither past an unfinal transaction
        cursors = {c.account: c for c in await ChainAddressCursor.filter(network=network)}
        assert set(cursors) == {address, token_account}
        assert (cursors[address].last_signature, cursors[token_account].last_signature) == (airdrop, None)

        # When the chain moves on and both USDC slots are final
        chain.advance(2)
        found = await watch(network)
        # Then both USDC deposits are credited once; the direct one was found through the token account
        assert sorted((d.tx_hash, int(d.amount)) for d in found) == sorted([(created, 100 * usdc),
                                                                           (direct, 50 * usdc)])
        assert {c.account: c.last_signature for c in await ChainAddressCursor.filter(network=network)} == {
            address: created, token_account: direct}

        # When the service restarts (adapters built again, the cursors read from the database) and polls
        network_registry.clear_adapters()
        assert await watch(network) == []
        # And a later payment arrives and becomes final
        later = chain.airdrop(owner, sol)
        chain.advance(2)
        assert [d.tx_hash for d in await watch(network)] == [later]
        # And even a watcher that lost its cursors (read from each account's first transaction) credits nothing twice
        await ChainAddressCursor.filter(network=network).delete()
        assert await watch(network) == []
        assert (int((await reload(sol_wallet)).total), int((await reload(usdc_wallet)).total)) == (3 * sol,
                                                                                                  150 * usdc)
        assert await Transaction.filter(direction="deposit", network=network).count() == 4
        # And the network's watched height is the final slot every account was read up to
        state = await ChainWatchState.get(network=network)
        assert state.scanned_height == await deposits.final_height(get_adapter(network))
