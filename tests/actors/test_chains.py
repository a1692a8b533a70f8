"""Real chains end to end (issue 14, "Done means"): from the running service (the in-process app,
the real signer actors and the client's co-signer), a vault receives SOL and an SPL token on a
LiteSVM chain and sends them out, and a vault receives bitcoin on a regtest chain validated by
Bitcoin Core's consensus code (py-bitcoinkernel) and spends it by a Taproot key path. Every
signature is made 2-of-3 by FROST through the signers: the key is never whole, not even when it
is created."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from coincurve import PrivateKey as Secp256k1Key
from nacl.signing import VerifyKey
from solders.keypair import Keypair
from solders.pubkey import Pubkey

from core.unit_of_work import unit_of_work
from domain import balances, wallets
from domain.currencies import registry
from domain.networks import registry as network_registry
from domain.networks.bitcoin import BitcoinAdapter, p2tr_script
from domain.networks.solana_chain import local_chain
from domain.withdrawals import pipeline
from models.deposits import ChainWatchState
from models.keys import KeySet
from models.sessions import SigningSession
from models.transactions import Transaction
from models.utxos import ChainUtxo
from models.wallets import Wallet
from models.workspaces import Workspace
from tests.support.bitcoin_kernel import KernelRegtestNode
from tests.support.signing import ready_vault
from tests.support.wallets import address_of, reload, watch
from tests.support.withdrawals import allow_one_time_addresses, step, until_status, withdraw
from threshold.scheme import ED25519_SCHEME, TAPROOT_SCHEME
from threshold.taproot import output_key, verify_bip340

SOLANA = "solana-local"
REGTEST = "bitcoin-regtest"
SOL = 10**9
USDC = 10**6
COIN = 10**8


async def _wallet(workspace_id: Any, vault_id: Any, currency_id: str) -> Wallet:
    ws = await Workspace.get(id=workspace_id)
    async with unit_of_work():
        views = await wallets.create_wallet(principal=None, workspace=ws, vault_id=vault_id, currency_id=currency_id)
    return views[0].wallet


def _total(wallet: Wallet) -> int:
    return balances.parts_of(wallet).total


async def _finish(tx: Transaction, on_wait: Any) -> Transaction:
    done = await until_status(tx.id, "finished", "failed", timeout=90, on_wait=on_wait)
    assert (done.status, done.error_code, done.error_message) == ("finished", None, None)
    return done


# --------------------------------------------------------------------------------------------
# Solana on LiteSVM
# --------------------------------------------------------------------------------------------


async def test_a_vault_receives_sol_and_an_spl_token_on_litesvm_and_sends_them_out(client, worker, tmp_path):
    # Given a vault whose FROST(Ed25519) key was made by the DKG of both signers and the co-signer
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    sol = await _wallet(setup.workspace_id, setup.vault.id, "SOL_LOCAL")
    usdc = await _wallet(setup.workspace_id, setup.vault.id, "USDC_SOL_LOCAL")
    address = await address_of(sol)
    # Then its Solana address is the base58 of the Ed25519 group key
    assert address == str(Pubkey.from_bytes(bytes(setup.key_set.group_public_key)))
    assert await address_of(usdc) == address
    # When SOL and USDC arrive on the chain (LiteSVM, the faucet's recorded transactions)
    chain = local_chain(SOLANA)
    await ChainWatchState.filter(network=SOLANA).delete()
    chain.airdrop(Pubkey.from_string(address), 2 * SOL)
    mint = Pubkey.from_string(registry().currency("USDC_SOL_LOCAL").contract or "")
    chain.mint_tokens(Pubkey.from_string(address), mint, 500 * USDC, decimals=6)
    found = await watch(SOLANA)
    # Then the deposit watcher credits both wallets
    assert sorted((d.currency_id, int(d.amount)) for d in found) == [("SOL_LOCAL", 2 * SOL),
                                                                      ("USDC_SOL_LOCAL", 500 * USDC)]
    assert (_total(await reload(sol)), _total(await reload(usdc))) == (2 * SOL, 500 * USDC)

    # When the vault sends SOL and USDC to addresses it does not own (the USDC recipient has no
    # token account yet: the transfer creates it, its rent paid by the vault as fee)
    ws = await Workspace.get(id=setup.workspace_id)
    await allow_one_time_addresses(ws.id)
    sol_to, usdc_to = Keypair().pubkey(), Keypair().pubkey()
    adapter = network_registry.get_adapter(SOLANA)

    async def on_wait() -> None:
        for row in await Transaction.filter(workspace_id=ws.id, status="broadcast"):
            chain.advance(1)
            await step(pipeline.track, row)

    sent_sol = await _finish((await withdraw(ws, await reload(sol), str(sol_to), SOL // 2)).transaction, on_wait)
    sent_usdc = await _finish((await withdraw(ws, await reload(usdc), str(usdc_to), 120 * USDC)).transaction, on_wait)

    # Then both landed on the chain: the recipients hold the amounts
    assert await adapter.balance_of(address=str(sol_to), currency=registry().currency("SOL_LOCAL")) == SOL // 2
    assert await adapter.balance_of(address=str(usdc_to), currency=registry().currency("USDC_SOL_LOCAL")) == 120 * USDC
    # And each was signed 2-of-3 by the signers; the signature is a plain Ed25519 signature of the message
    for sent in (sent_sol, sent_usdc):
        session = await SigningSession.get(id=sent.signing_session_id)
        assert session.participants == [1, 2] and session.status == "completed"
        VerifyKey(bytes(setup.key_set.group_public_key)).verify(bytes(session.message), bytes(session.signature))
        assert (await chain.signature_status(sent.tx_hash)) is not None
    # And the ledger agrees with the chain: what left the address is amount plus fees (and the rent
    # of the recipient's token account, charged as fee of the USDC transfer)
    assert int(sent_usdc.fee) == int(sent_usdc.transfer["fee"]) + int(sent_usdc.transfer["account_creation_fee"])
    assert int(sent_usdc.transfer["account_creation_fee"]) > 0
    chain_sol = await adapter.balance_of(address=address, currency=registry().currency("SOL_LOCAL"))
    assert _total(await reload(sol)) == chain_sol == 2 * SOL - SOL // 2 - int(sent_sol.fee) - int(sent_usdc.fee)
    assert _total(await reload(usdc)) == 380 * USDC


async def test_an_expired_blockhash_is_built_and_signed_again(client, worker, tmp_path):
    # Given a funded Solana wallet of a vault with a real threshold key
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    sol = await _wallet(setup.workspace_id, setup.vault.id, "SOL_LOCAL")
    chain = local_chain(SOLANA)
    await ChainWatchState.filter(network=SOLANA).delete()
    chain.airdrop(Pubkey.from_string(await address_of(sol)), SOL)
    await watch(SOLANA)
    ws = await Workspace.get(id=setup.workspace_id)
    await allow_one_time_addresses(ws.id)
    # And a withdrawal whose blockhash expires while it is being signed (a slow co-signer, a backlog)
    tx = (await withdraw(ws, await reload(sol), str(Keypair().pubkey()), SOL // 4)).transaction
    signing = await until_status(tx.id, "signing", "failed", timeout=60)
    assert signing.status == "signing"
    first_message = signing.transfer["message"]
    chain.svm.expire_blockhash()

    # When it is broadcast / Then the network refuses the old bytes, and the withdrawal is built
    # and signed again (new message, new session) instead of failing; the second one lands
    async def on_wait() -> None:
        row = await Transaction.get(id=tx.id)
        if row.status == "broadcast":
            chain.advance(1)
            await step(pipeline.track, row)

    done = await _finish(tx, on_wait)
    assert done.transfer["message"] != first_message
    assert await SigningSession.filter(purpose=f"withdrawal:{tx.id}", status="completed").count() == 2
    assert await chain.signature_status(done.tx_hash) is not None


# --------------------------------------------------------------------------------------------
# Bitcoin on regtest, validated by libbitcoinkernel
# --------------------------------------------------------------------------------------------


@pytest.fixture
def regtest_node(tmp_path: Path) -> Iterator[KernelRegtestNode]:
    """bitcoin-regtest served by an in-process regtest chain whose mempool and blocks are checked
    by Bitcoin Core's consensus code (tests/support/bitcoin_kernel.py)."""
    node = KernelRegtestNode(tmp_path / "regtest")

    def factory(network: Any) -> BitcoinAdapter:
        return BitcoinAdapter(network, node=node) if network.id == REGTEST else BitcoinAdapter(network)

    network_registry.register_adapter("bitcoin", "utxo", factory)  # type: ignore[arg-type]
    network_registry.clear_adapters()
    yield node
    network_registry.register_adapter("bitcoin", "utxo", BitcoinAdapter)  # type: ignore[arg-type]
    network_registry.clear_adapters()


def _elsewhere() -> bytes:
    return p2tr_script(Secp256k1Key().public_key.format()[1:])


async def test_a_vault_receives_bitcoin_on_regtest_and_spends_it_by_taproot_key_path(
        client, worker, tmp_path, regtest_node):
    # Given a vault with both key sets made by the same DKG (Ed25519 and Taproot secp256k1)
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ED25519_SCHEME, TAPROOT_SCHEME))
    taproot = await KeySet.get(vault_id=setup.vault.id, scheme=TAPROOT_SCHEME)
    btc = await _wallet(setup.workspace_id, setup.vault.id, "BTC_REGTEST")
    address = await address_of(btc)
    adapter = network_registry.get_adapter(REGTEST)
    assert isinstance(adapter, BitcoinAdapter)
    # Then its address is the P2TR (bech32m) of the tweaked secp256k1 group key
    tweaked, _ = output_key(bytes(taproot.group_public_key), b"")
    assert address.startswith("bcrt1p") and adapter.script_of(address) == p2tr_script(tweaked)
    # When two coinbase outputs pay it and mature (blocks connected by libbitcoinkernel)
    await ChainWatchState.filter(network=REGTEST).delete()
    await ChainUtxo.filter(network=REGTEST).delete()
    regtest_node.mine(adapter.script_of(address), 2)
    regtest_node.mine(_elsewhere(), 100)
    found = await watch(REGTEST)
    # Then the watcher credits 100 BTC
    assert sorted(int(d.amount) for d in found) == [50 * COIN, 50 * COIN]
    assert _total(await reload(btc)) == 100 * COIN

    # When the vault sends 60 BTC elsewhere: two inputs, so two signatures, each through the signers
    ws = await Workspace.get(id=setup.workspace_id)
    await allow_one_time_addresses(ws.id)
    recipient = Secp256k1Key().public_key.format()
    to = adapter.address_from_public_key(recipient)

    async def on_wait() -> None:
        row = await Transaction.get(id=sent.id)
        if row.status == "broadcast":
            regtest_node.mine(_elsewhere(), 1)  # the kernel connects the block holding the spend
            await watch(REGTEST)
            await step(pipeline.track, row)

    sent = (await withdraw(ws, await reload(btc), to, 60 * COIN, fee_rate_sat_per_vb=3)).transaction
    done = await _finish(sent, on_wait)

    # Then the spend was accepted by Bitcoin Core's consensus code (script checks at the mempool,
    # then block connection): the recipient's output is in the chain's UTXO set
    recipient_script = adapter.script_of(to)
    assert done.tx_hash in regtest_node.confirmed
    paid = [(coin[0], coin[1]) for (txid, _), coin in regtest_node.utxos.items() if txid == done.tx_hash]
    assert (60 * COIN, recipient_script) in paid
    # And each input was signed by a Taproot session, 2-of-3, for the key-path output key: a
    # BIP-340 signature that verifies under the address's output key
    session_ids = done.signing_session_ids
    assert len(session_ids) == 2 == len(done.transfer["inputs"])
    for session_id in session_ids:
        session = await SigningSession.get(id=session_id)
        assert (session.participants, bytes(session.merkle_root)) == ([1, 2], b"")
        assert (await session.key_set).scheme == TAPROOT_SCHEME
        assert verify_bip340(tweaked, bytes(session.message), bytes(session.signature))
    # And the ledger agrees with the chain: 100 BTC - 60 BTC - fee; the change is the address's
    fee = int(done.fee)
    assert fee == int(done.transfer["fee"]) > 0
    assert _total(await reload(btc)) == 100 * COIN - 60 * COIN - fee
    assert await adapter.balance_of(address=address, currency=registry().currency("BTC_REGTEST")) == 40 * COIN - fee
    # And no input stays reserved
    assert not await ChainUtxo.filter(network=REGTEST, reserved_by__isnull=False, spent_by__isnull=True).exists()


async def test_a_bitcoin_withdrawal_that_fails_releases_its_inputs(client, worker, tmp_path, regtest_node):
    # Given a funded Taproot wallet
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ED25519_SCHEME, TAPROOT_SCHEME))
    btc = await _wallet(setup.workspace_id, setup.vault.id, "BTC_REGTEST")
    adapter = network_registry.get_adapter(REGTEST)
    await ChainWatchState.filter(network=REGTEST).delete()
    await ChainUtxo.filter(network=REGTEST).delete()
    regtest_node.mine(adapter.script_of(await address_of(btc)), 1)
    regtest_node.mine(_elsewhere(), 100)
    await watch(REGTEST)
    ws = await Workspace.get(id=setup.workspace_id)
    await allow_one_time_addresses(ws.id)
    tx = (await withdraw(ws, await reload(btc), adapter.address_from_public_key(Secp256k1Key().public_key.format()),
                         10 * COIN)).transaction
    await step(pipeline.run_checks, tx)
    await step(pipeline.start_signing, tx)
    # Then its input is reserved under the withdrawal's intent key
    assert await ChainUtxo.filter(network=REGTEST, reserved_by=f"withdrawal:{tx.id}").count() == 1
    # When its signing fails (a signer is blamed) / Then the withdrawal fails and the input is free again
    row = await Transaction.get(id=tx.id)
    await SigningSession.filter(id=row.signing_session_id).update(status="failed", failure_reason="test")
    failed = await step(pipeline.collect_signature, tx)
    assert (failed.status, failed.error_code) == ("failed", "SIGNING_FAILED")
    assert not await ChainUtxo.filter(network=REGTEST, reserved_by__isnull=False).exists()
