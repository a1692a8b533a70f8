"""Bitcoin (domain/networks/bitcoin.py) on an in-process regtest chain validated by Bitcoin Core's
consensus engine (py-bitcoinkernel): a vault's 2-of-3 FROST(secp256k1) Taproot key receives bitcoin
at its P2TR address and spends it by the key path, one threshold signature per input; the
kernel verifies every input's script and connects the blocks. Each test reads Given / When / Then."""

from __future__ import annotations

from pathlib import Path

import pytest
from coincurve import PrivateKey
from embit.script import Script, Witness
from embit.transaction import Transaction

from core.unit_of_work import unit_of_work
from domain.currencies import registry
from domain.errors import DomainError
from domain.networks.addresses import InvalidAddress
from domain.networks.base import key_scheme_of, signing_payloads, submit_signed
from domain.networks.bitcoin import BitcoinAdapter, p2tr_script
from models.utxos import ChainUtxo
from models.wallets import WalletAddress
from tests.support.bitcoin_kernel import KernelRegtestNode, Refused, verify_spend
from tests.support.callers import make_workspace
from tests.support.signing import create_vault
from tests.support.threshold_keys import SIGNER_SUBSETS, ThresholdKey, taproot_key
from threshold.scheme import TAPROOT_SCHEME
from threshold.taproot import output_key

NETWORK = "bitcoin-regtest"
COIN = 10**8


@pytest.fixture(scope="module")
def vault_key() -> ThresholdKey:
    return taproot_key("vault:bitcoin")


@pytest.fixture
def node(tmp_path: Path) -> KernelRegtestNode:
    return KernelRegtestNode(tmp_path / "regtest")


@pytest.fixture
def adapter(node: KernelRegtestNode) -> BitcoinAdapter:
    return BitcoinAdapter(registry().network(NETWORK), node=node)


def other_script() -> bytes:
    """The P2TR script of a fresh plain key (a recipient, or the miner)."""
    return p2tr_script(PrivateKey().public_key.format()[1:])


async def watch_address(address: str, public_key: bytes) -> None:
    workspace = await make_workspace(network_type="testnet")
    vault = await create_vault(workspace.id, generate_key=False)
    await WalletAddress.create(workspace_id=workspace.id, vault_id=vault.id, network=NETWORK, address=address,
                               public_key=public_key)


async def read_blocks(adapter: BitcoinAdapter, start: int) -> list:
    """What the deposit watcher does: read every new block (in a unit of work); the transfers."""
    transfers = []
    for height in range(start, await adapter.latest_height() + 1):
        async with unit_of_work():
            transfers += (await adapter.read_block(height)).transfers
    return transfers


async def funded_vault(vault_key: ThresholdKey, node: KernelRegtestNode, adapter: BitcoinAdapter) -> str:
    """A watched vault address holding two mature 50 BTC coinbase outputs (blocks 1 and 2)."""
    address = adapter.address_from_public_key(vault_key.group_public_key)
    await watch_address(address, vault_key.group_public_key)
    node.mine(adapter.script_of(address), 2)
    node.mine(other_script(), 100)  # coinbase maturity
    deposits = await read_blocks(adapter, 1)
    assert [(t.to_address, t.amount, t.currency_id) for t in deposits] == [
        (address, 50 * COIN, "BTC_REGTEST"), (address, 50 * COIN, "BTC_REGTEST")]
    return address


def test_the_address_is_the_p2tr_output_of_the_tweaked_group_key(vault_key: ThresholdKey,
                                                                 adapter: BitcoinAdapter) -> None:
    # Given a vault's secp256k1 group key / When its regtest address is derived
    address = adapter.address_from_public_key(vault_key.group_public_key)
    # Then it is bech32m witness v1 of the key-path-only Taproot output key, and signs with the Taproot scheme
    tweaked, _ = output_key(vault_key.group_public_key, b"")
    assert address.startswith("bcrt1p") and adapter.script_of(address) == b"\x51\x20" + tweaked
    assert key_scheme_of(adapter) == TAPROOT_SCHEME
    # And an Ed25519 (32-byte) key never gets a Bitcoin address
    with pytest.raises(ValueError):
        adapter.address_from_public_key(bytes(32))
    # And other networks' and malformed addresses are refused; every standard type of this network is accepted
    mainnet = BitcoinAdapter(registry().network("bitcoin-mainnet"), node=adapter.node)
    # (the checksum's last character changed: to another one whatever the random key made it)
    corrupted = address[:-1] + ("p" if address.endswith("q") else "q")
    for bad in (mainnet.address_from_public_key(vault_key.group_public_key), corrupted, "", "bcrt1xyz"):
        with pytest.raises(InvalidAddress):
            adapter.normalize_address(bad)
    assert adapter.normalize_address(address.upper()) == address
    p2wpkh = Script(b"\x00\x14" + bytes(20)).address(adapter.chain_params)
    p2pkh = Script(b"\x76\xa9\x14" + bytes(20) + b"\x88\xac").address(adapter.chain_params)
    assert adapter.normalize_address(p2wpkh) == p2wpkh and adapter.normalize_address(p2pkh) == p2pkh


async def test_a_vault_receives_bitcoin_and_spends_it_by_the_key_path(
        database, vault_key: ThresholdKey, node: KernelRegtestNode, adapter: BitcoinAdapter) -> None:
    btc = registry().currency("BTC_REGTEST")
    # Given a vault address holding two confirmed outputs (deposits read from the blocks)
    address = await funded_vault(vault_key, node, adapter)
    async with unit_of_work():
        assert await adapter.balance_of(address=address, currency=btc) == 100 * COIN
        # When it pays 70 BTC at 5 sat/vB (both outputs needed: two inputs, two payloads)
        recipient = Script(other_script()).address(adapter.chain_params)
        unsigned = await adapter.build_transfer(currency=btc, from_address=address,
                                                public_key=vault_key.group_public_key, to_address=recipient,
                                                amount=70 * COIN, fee_rate=5, intent_key="withdrawal-1")
    payloads = signing_payloads(unsigned)
    assert [p.input_index for p in payloads] == [0, 1] and len(unsigned.inputs) == 2
    assert all(p.scheme == TAPROOT_SCHEME and p.merkle_root == b"" and len(p.message) == 32 for p in payloads)
    # And each input is signed by a different pair of participants (the key is never whole)
    signatures = [vault_key.sign(p.message, signers) for p, signers in zip(payloads, [(1, 2), (2, 3)])]
    # (the txid is known before any signature: Taproot witnesses are not part of it)
    expected_txid = adapter.transaction_hash(body=unsigned.body, signature=b"")
    async with unit_of_work():
        txid = await submit_signed(adapter, body=unsigned.body, signatures=signatures)
        assert txid == expected_txid and (await adapter.transfer_status(txid)).state == "pending"
    # Then the kernel accepted every input's script into its mempool and connects the block holding it
    assert [tx.txid().hex() for tx in node.mempool] == [txid]
    node.mine(other_script())
    spent_block = await adapter.latest_height()
    transfers = await read_blocks(adapter, spent_block)
    # And the fee is vsize x rate, the change returns to the vault and is not reported as a deposit
    fee = int(unsigned.body["fee"])
    assert fee == unsigned.body["vsize"] * 5 == unsigned.fee_limit
    assert [(o["address"], int(o["amount"])) for o in unsigned.body["outputs"]] == [
        (recipient, 70 * COIN), (address, 30 * COIN - fee)]
    assert transfers == []
    async with unit_of_work():
        assert await adapter.balance_of(address=address, currency=btc) == 30 * COIN - fee
        assert await adapter.transaction_status(txid) == (spent_block, 1)
        status = await adapter.transfer_status(txid)
        assert (status.state, status.block_height) == ("included", spent_block)
    node.mine(other_script(), 2)
    async with unit_of_work():
        assert await adapter.transaction_status(txid) == (spent_block, 3)
    # And submitting the same signed transfer again changes nothing
    async with unit_of_work():
        assert await adapter.submit_signatures(body=unsigned.body, signatures=signatures) == txid


async def test_every_signer_subset_signs_spends_the_kernel_accepts(
        database, vault_key: ThresholdKey, node: KernelRegtestNode, adapter: BitcoinAdapter) -> None:
    btc = registry().currency("BTC_REGTEST")
    address = await funded_vault(vault_key, node, adapter)
    for signers in SIGNER_SUBSETS:
        # Given the vault's newest confirmed coins / When a subset signs a 1 BTC payment
        async with unit_of_work():
            unsigned = await adapter.build_transfer(currency=btc, from_address=address,
                                                    public_key=vault_key.group_public_key,
                                                    to_address=Script(other_script()).address(adapter.chain_params),
                                                    amount=COIN, fee_rate=2)
            signatures = [vault_key.sign(p.message, signers) for p in signing_payloads(unsigned)]
            await adapter.submit_signatures(body=unsigned.body, signatures=signatures)
        # Then the kernel verifies and connects it; the next spend uses the confirmed change
        node.mine(other_script())
        await read_blocks(adapter, await adapter.latest_height())
    async with unit_of_work():
        assert await adapter.balance_of(address=address, currency=btc) < 100 * COIN - 4 * COIN


async def test_a_tampered_signature_is_refused_by_the_adapter_and_by_the_kernel(
        database, vault_key: ThresholdKey, node: KernelRegtestNode, adapter: BitcoinAdapter) -> None:
    btc = registry().currency("BTC_REGTEST")
    address = await funded_vault(vault_key, node, adapter)
    async with unit_of_work():
        unsigned = await adapter.build_transfer(currency=btc, from_address=address,
                                                public_key=vault_key.group_public_key,
                                                to_address=Script(other_script()).address(adapter.chain_params),
                                                amount=10 * COIN, fee_rate=3)
    (payload,) = signing_payloads(unsigned)
    signature = vault_key.sign(payload.message, (1, 3))
    tampered = signature[:63] + bytes([signature[63] ^ 1])
    # When the adapter is given the tampered signature / Then it refuses it, naming the input
    with pytest.raises(DomainError) as refused:
        async with unit_of_work():
            await adapter.submit_signatures(body=unsigned.body, signatures=[tampered])
    assert (refused.value.code, refused.value.details["input_index"]) == ("INVALID_SIGNATURE", 0)
    # And Bitcoin Core's script verification refuses the same witness assembled by hand
    tx = Transaction.parse(bytes.fromhex(unsigned.body["unsigned_tx"]))
    spent = [(s.amount, bytes.fromhex(s.script_pubkey)) for s in unsigned.inputs]
    tx.vin[0].witness = Witness([tampered])
    with pytest.raises(Exception):  # noqa: B017 - pbk.ScriptVerifyException or Refused
        verify_spend(tx.serialize(), spent)
    # And a block holding it is not connected by the chainstate
    with pytest.raises(Refused):
        node.submit_block(node.build_block(other_script(), [tx]))
    # While the honest signature passes both
    tx.vin[0].witness = Witness([signature])
    verify_spend(tx.serialize(), spent)
    node.submit_block(node.build_block(other_script(), [tx]))


async def test_the_intent_key_reuses_its_inputs_and_keeps_them_from_other_payments(
        database, vault_key: ThresholdKey, node: KernelRegtestNode, adapter: BitcoinAdapter) -> None:
    btc = registry().currency("BTC_REGTEST")
    address = await funded_vault(vault_key, node, adapter)
    recipient = Script(other_script()).address(adapter.chain_params)

    async def build(intent: str, amount: int, fee_rate: int = 2):  # type: ignore[no-untyped-def]
        async with unit_of_work():
            return await adapter.build_transfer(currency=btc, from_address=address,
                                                public_key=vault_key.group_public_key, to_address=recipient,
                                                amount=amount, fee_rate=fee_rate, intent_key=intent)

    # Given a payment reserved under its intent key
    first = await build("intent-a", 40 * COIN)
    # When it is built again (a retry, a higher fee) / Then it spends exactly the same inputs
    again = await build("intent-a", 40 * COIN, fee_rate=9)
    assert again.inputs == first.inputs and again.body["intent_key"] == "intent-a"
    # And another payment cannot take them: it gets the other output, and a third finds nothing left
    other = await build("intent-b", 40 * COIN)
    assert set(other.inputs).isdisjoint(first.inputs)
    with pytest.raises(DomainError) as refused:
        await build("intent-c", 40 * COIN)
    assert refused.value.code == "INSUFFICIENT_FUNDS"
    # When the first payment is given up / Then its inputs are free again
    async with unit_of_work():
        assert await adapter.release_inputs(intent_key="intent-a") == 1
    assert (await build("intent-c", 40 * COIN)).inputs == first.inputs
    assert await ChainUtxo.filter(reserved_by="intent-a").count() == 0


async def test_fees_dust_and_funds(database, vault_key: ThresholdKey, node: KernelRegtestNode,
                                   adapter: BitcoinAdapter) -> None:
    btc = registry().currency("BTC_REGTEST")
    address = await funded_vault(vault_key, node, adapter)
    # Given no fee rate / Then the network's default applies; a one-input, two-output P2TR spend is 154 vB
    estimate = await adapter.estimate_fee(currency=btc)
    assert (estimate.vsize, estimate.fee_rate_sat_per_vb, estimate.fee) == (154, 2, 308)
    async with unit_of_work():
        exact = await adapter.estimate_fee(currency=btc, amount=COIN, from_address=address, fee_rate=10)
    assert (exact.vsize, exact.fee) == (154, 1540)
    for amount, fee_rate, code in ((100, 2, "AMOUNT_BELOW_DUST"), (101 * COIN, 2, "INSUFFICIENT_FUNDS"),
                                   (COIN, 0.5, "FEE_RATE_TOO_LOW")):
        with pytest.raises(DomainError) as refused:
            async with unit_of_work():
                await adapter.build_transfer(currency=btc, from_address=address, public_key=vault_key.group_public_key,
                                             to_address=address, amount=amount, fee_rate=fee_rate)  # type: ignore[arg-type]
        assert refused.value.code == code
    # And change below dust goes to the fee: one output, no change
    async with unit_of_work():
        whole = await adapter.build_transfer(currency=btc, from_address=address, public_key=vault_key.group_public_key,
                                             to_address=Script(other_script()).address(adapter.chain_params),
                                             amount=50 * COIN - 120 * 2 - 100, fee_rate=2)
    assert len(whole.body["outputs"]) == 1 and int(whole.body["fee"]) >= whole.body["vsize"] * 2
    assert [spent.amount for spent in whole.inputs] == [50 * COIN]
