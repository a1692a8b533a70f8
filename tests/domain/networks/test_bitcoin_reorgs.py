"""Reorganizations on Bitcoin, as the deposit watcher (domain/deposits.py) meets them: the chain is
an in-process regtest chain whose blocks, and whose switch to a branch with more work, are decided
by Bitcoin Core's consensus engine (py-bitcoinkernel, tests/support/bitcoin_kernel.py). Each test
reads Given / When / Then."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from coincurve import PrivateKey

from core.unit_of_work import unit_of_work
from domain import balances, deposits
from domain.currencies import registry
from domain.networks import registry as network_registry
from domain.networks.bitcoin import BitcoinAdapter, p2tr_script
from models.deposits import ChainWatchBlock, ChainWatchState
from models.transactions import Transaction
from models.utxos import ChainUtxo
from models.wallets import Wallet, WalletAddress
from tests.support.bitcoin_kernel import KernelRegtestNode
from tests.support.callers import make_workspace
from tests.support.signing import create_vault
from tests.support.wallets import watch
from tests.support.withdrawals import confirmations_required

NETWORK = "bitcoin-regtest"
COIN = 10**8


@pytest.fixture
def node(tmp_path: Path) -> Iterator[KernelRegtestNode]:
    """bitcoin-regtest served by the kernel chain, for get_adapter (what the watcher uses) too."""
    chain = KernelRegtestNode(tmp_path / "regtest")

    def factory(network: Any) -> BitcoinAdapter:
        return BitcoinAdapter(network, node=chain) if network.id == NETWORK else BitcoinAdapter(network)

    network_registry.register_adapter("bitcoin", "utxo", factory)  # type: ignore[arg-type]
    network_registry.clear_adapters()
    yield chain
    network_registry.register_adapter("bitcoin", "utxo", BitcoinAdapter)  # type: ignore[arg-type]
    network_registry.clear_adapters()


def elsewhere() -> bytes:
    """The P2TR script of a fresh plain key: a miner that is not the vault."""
    return p2tr_script(PrivateKey().public_key.format()[1:])


async def btc_wallet() -> tuple[Wallet, str, bytes]:
    """A vault's BTC_REGTEST wallet at the P2TR address of its Taproot key: (wallet, address, script)."""
    adapter = network_registry.get_adapter(NETWORK)
    assert isinstance(adapter, BitcoinAdapter)
    key = PrivateKey().public_key.format()  # a 33-byte group key stands in for the vault's Taproot key set
    address = adapter.address_from_public_key(key)
    workspace = await make_workspace(network_type="testnet")
    vault = await create_vault(workspace.id, generate_key=False)
    row = await WalletAddress.create(workspace_id=workspace.id, vault_id=vault.id, network=NETWORK, address=address,
                                     public_key=key)
    wallet = await Wallet.create(workspace_id=workspace.id, vault_id=vault.id, address_id=row.id,
                                 currency_id="BTC_REGTEST")
    return wallet, address, adapter.script_of(address)


async def total(wallet: Wallet) -> int:
    return balances.parts_of(await Wallet.get(id=wallet.id)).total


async def indexed_balance(address: str) -> int:
    adapter = network_registry.get_adapter(NETWORK)
    async with unit_of_work():
        return await adapter.balance_of(address=address, currency=registry().currency("BTC_REGTEST"))


async def test_a_reorg_below_finality_replaces_an_unfinal_deposit_and_credits_the_new_branch_once(
        database, node: KernelRegtestNode, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with confirmations_required(settings, tmp_path, NETWORK, 3):
        # Given a vault's BTC wallet, and a chain where block 2 pays the vault 50 BTC (coinbase)
        wallet, address, script = await btc_wallet()
        node.mine(elsewhere(), 1)
        node.mine(script, 1)
        orphaned = node.hashes[2]
        node.mine(elsewhere(), 1)
        # When the watcher reads (3 confirmations: only block 1 is final, block 2 is not)
        assert await watch(NETWORK) == []
        assert (await ChainWatchState.get(network=NETWORK)).scanned_height == 1
        # And the chain reorganizes below finality: the kernel switches to a branch with more work
        # from block 1, where blocks 2-4 pay someone else and block 5 pays the vault
        node.reorganize(1, elsewhere(), 3)
        node.mine(script, 1)
        replacing = node.hashes[5]
        node.mine(elsewhere(), 2)
        assert orphaned not in node.hashes
        found = await watch(NETWORK)
        # Then only the new branch's payment is credited, once, from block 5; block 2's never was
        assert [(d.block_height, int(d.amount), d.status) for d in found] == [(5, 50 * COIN, "finished")]
        assert await total(wallet) == 50 * COIN
        assert await ChainUtxo.filter(network=NETWORK).values_list("block_height", flat=True) == [5]
        assert await indexed_balance(address) == 50 * COIN
        # And the hashes the watcher kept are the new branch's
        kept = dict(await ChainWatchBlock.filter(network=NETWORK).values_list("height", "hash"))
        assert kept[5] == replacing and all(kept[h] == node.hashes[h] for h in kept)
        # And reading everything again credits nothing more
        await ChainWatchState.filter(network=NETWORK).update(scanned_height=0)
        assert await watch(NETWORK) == []
        assert await Transaction.filter(direction="deposit").count() == 1 and await total(wallet) == 50 * COIN


async def test_a_reorg_deeper_than_finality_halts_the_watcher_and_never_rewrites_a_final_deposit(
        database, node: KernelRegtestNode, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with confirmations_required(settings, tmp_path, NETWORK, 2):
        # Given a final deposit: block 3 pays the vault and has 2 confirmations
        wallet, address, script = await btc_wallet()
        node.mine(elsewhere(), 2)
        node.mine(script, 1)
        node.mine(elsewhere(), 1)
        [credited] = await watch(NETWORK)
        assert (credited.block_height, int(credited.amount)) == (3, 50 * COIN)
        # When the chain replaces blocks 3 and 4 by a longer branch: block 3 was final (2 confirmations)
        node.reorganize(2, elsewhere(), 3)
        node.mine(elsewhere(), 1)
        # Then the watcher credits and reads nothing more there: it is halted, with what the operator needs
        assert await watch(NETWORK) == []
        state = await ChainWatchState.get(network=NETWORK)
        assert state.halted_at is not None and state.scanned_height == 3
        details = state.halt_details
        assert (details["reason"], details["height"], details["fork_height"], details["chain_hash"]) == (
            "REORG_BEYOND_FINALITY", 3, 2, node.hashes[3])
        assert (details["deposits_above_fork"], details["deposit_ids"]) == (1, [str(credited.id)])
        assert await watch(NETWORK) == []  # every poll, until resumed
        # And the final deposit stays as it was credited (the service never rewrites a final deposit)
        assert (await Transaction.get(id=credited.id)).status == "finished" and await total(wallet) == 50 * COIN

        # When an operator resumes it
        async with unit_of_work():
            resumed = await deposits.resume_watch(network_id=NETWORK)
        assert (resumed["resumed"], resumed["scanned_height"]) == (True, 2)
        # Then it reads the new branch from the fork point; the replaced coinbase is no longer spendable
        assert await watch(NETWORK) == []
        state = await ChainWatchState.get(network=NETWORK)
        assert (state.halted_at, state.scanned_height) == (None, await node.height() - 1)
        assert await indexed_balance(address) == 0
        assert await ChainUtxo.filter(network=NETWORK, block_height__isnull=False).count() == 0
        # And a payment on the new branch is credited once, as usual
        node.mine(script, 1)
        node.mine(elsewhere(), 1)
        assert [int(d.amount) for d in await watch(NETWORK)] == [50 * COIN]
        assert await indexed_balance(address) == 50 * COIN
