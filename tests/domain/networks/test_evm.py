"""The EVM adapter on a real EVM: py-evm (evm-local's node, always) and anvil (when installed).

Every transaction is signed by a 2-of-3 threshold ECDSA key made in the test (threshold.ecdsa,
participants 1 and 2 sign; the key is never whole), asked for exactly as every network asks: one
signing payload (the EIP-1559 signing hash) for the scheme ``ECDSA-secp256k1-cait-sith-v1``.
The chain executes each one by Ethereum's rules. Each test reads Given / When / Then.
"""

from __future__ import annotations

import asyncio

import pytest
from eth_account import Account
from eth_utils import to_checksum_address
from tortoise.transactions import in_transaction

from core.unit_of_work import unit_of_work
from domain import balances, deposits
from domain.currencies import registry
from domain.networks import registry as network_registry
from domain.networks.addresses import InvalidAddress
from domain.networks.base import (
    InsufficientFunds,
    InsufficientGas,
    InvalidSignature,
    NetworkUnavailable,
    TransferRejected,
    key_scheme_of,
)
from domain.networks.evm import EvmAdapter, parse_address, take_nonce
from domain.networks.evm_dev import TOKEN_ADDRESS
from models.deposits import ChainWatchState
from models.evm import EvmNonce
from models.transactions import Transaction
from tests.support.evm import ETH, NETWORK, USDC, Chain, EcdsaKey, evm_enabled, evm_vault, sign_and_submit
from tests.support.withdrawals import confirmations_required
from threshold.scheme import ECDSA_SCHEME

pytestmark = pytest.mark.usefixtures("database")
OTHER = "0x000000000000000000000000000000000000dEaD"


@pytest.fixture(scope="module")
def key() -> EcdsaKey:
    return EcdsaKey.generate()


def eth() -> object:
    return registry().currency("ETH_LOCAL")


def usdc() -> object:
    return registry().currency("USDC_ETH_LOCAL")


async def build(adapter: EvmAdapter, key: EcdsaKey, currency: object, amount: int, *, to: str = OTHER,
                intent_key: str | None = None, fee_rate: int | None = None):  # type: ignore[no-untyped-def]
    async with unit_of_work():
        return await adapter.build_transfer(currency=currency, from_address=key.address,  # type: ignore[arg-type]
                                            public_key=key.public_key, to_address=to, amount=amount,
                                            fee_rate=fee_rate, intent_key=intent_key)


def test_addresses_are_eip55_of_the_threshold_key_and_typos_are_refused(key: EcdsaKey) -> None:
    adapter = EvmAdapter(registry().network(NETWORK), rpc=None)  # type: ignore[arg-type]
    # Given the group key of a threshold ECDSA key set
    address = adapter.address_from_public_key(key.public_key)
    # Then its address is Ethereum's (eth-keys) in EIP-55 form, and the adapter signs with ECDSA
    assert address == key.address and address == to_checksum_address(address)
    assert key_scheme_of(adapter) == ECDSA_SCHEME == network_registry.key_scheme_of_network(NETWORK)
    assert adapter.normalize_address(address.lower()) == address
    assert adapter.normalize_address("0x" + address[2:].upper()) == address
    # And a mixed-case address whose letter case is not its checksum (a typo), or no address, is
    # refused: one letter's case changed, of a case that another letter keeps, so the typo stays
    # mixed case (an address with a letter or two: EIP-55's example, "A" made "a"). (Before, a typo
    # that changed a digit to "a" was accepted once in 3,000 keys: all lower case, or by chance
    # a valid checksum of the other address.)
    letters = [index for index in range(2, len(address)) if address[index].isalpha()]
    kept = [index for index in letters if sum(address[i].isupper() == address[index].isupper() for i in letters) > 1]
    spec, spec_typo = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
    typo = address[:kept[0]] + address[kept[0]].swapcase() + address[kept[0] + 1:] if kept else spec_typo
    assert parse_address(spec) == spec and typo.lower() == (address if kept else spec).lower()
    for bad in (typo, spec_typo, address[:-1], "0x" + "ab" * 21, 42):
        with pytest.raises(InvalidAddress):
            parse_address(bad)  # type: ignore[arg-type]
    # And a 32-byte (Ed25519) key never gets an EVM address
    with pytest.raises(ValueError):
        adapter.address_from_public_key(bytes(32))


async def test_eth_moves_by_a_threshold_signature_and_the_real_fee_is_reported(
        evm_chain: Chain, evm_adapter: EvmAdapter, key: EcdsaKey) -> None:
    # Given an address of the threshold key holding 2 ETH
    await evm_chain.fund(key.address, eth=2 * ETH)
    before = await evm_chain.balance(OTHER)
    # When 0.5 ETH is built (EIP-1559), signed by signers 1 and 2 and submitted
    unsigned = await build(evm_adapter, key, eth(), ETH // 2)
    assert unsigned.payloads[0].scheme == ECDSA_SCHEME and len(unsigned.signing_payload) == 32
    assert unsigned.fee_limit == unsigned.body["gas"] * int(unsigned.body["max_fee_per_gas"])
    signature = key.sign(unsigned.signing_payload)
    expected_hash = evm_adapter.transaction_hash(body=unsigned.body, signature=signature)
    async with unit_of_work():
        tx_hash = await evm_adapter.submit_transfer(body=unsigned.body, signature=signature)
    await evm_chain.mine()
    # Then the chain executed it under the hash known before submitting
    assert tx_hash == expected_hash
    status = await evm_adapter.transfer_status(tx_hash)
    assert (status.state, status.success) == ("included", True)
    assert await evm_chain.balance(OTHER) - before == ETH // 2
    # And the fee is what the chain charged (gasUsed x effectiveGasPrice), within the limit held
    receipt = await evm_chain.call("eth_getTransactionReceipt", tx_hash)
    assert status.fee == int(receipt["gasUsed"], 16) * int(receipt["effectiveGasPrice"], 16) <= unsigned.fee_limit
    assert await evm_chain.balance(key.address) == 2 * ETH - ETH // 2 - status.fee
    # And submitting the same signed bytes again changes nothing
    async with unit_of_work():
        assert await evm_adapter.submit_transfer(body=unsigned.body, signature=signature) == tx_hash
    assert await evm_chain.balance(OTHER) - before == ETH // 2
    # And Ethereum's ecrecover names the vault's address as the sender
    assert (await evm_chain.call("eth_getTransactionByHash", tx_hash))["from"].lower() == key.address.lower()


async def test_an_erc20_transfer_and_its_balance(evm_chain: Chain, evm_adapter: EvmAdapter, key: EcdsaKey) -> None:
    # Given 100 test USDC and some ETH for gas at the threshold key's address
    await evm_chain.fund(key.address, eth=ETH, usdc=100 * USDC)
    assert await evm_adapter.balance_of(address=key.address, currency=usdc()) == 100 * USDC  # type: ignore[arg-type]
    # When 40 are sent
    unsigned = await build(evm_adapter, key, usdc(), 40 * USDC)
    assert unsigned.body["contract"] == TOKEN_ADDRESS and unsigned.body["value"] == "0"
    tx_hash = await sign_and_submit(evm_adapter, key, unsigned)
    await evm_chain.mine()
    # Then the token moved and the fee was paid in ETH
    assert (await evm_adapter.transfer_status(tx_hash)).success
    assert await evm_adapter.balance_of(address=key.address, currency=usdc()) == 60 * USDC  # type: ignore[arg-type]
    assert await evm_adapter.balance_of(address=OTHER, currency=usdc()) >= 40 * USDC  # type: ignore[arg-type]


async def test_funds_are_checked_before_signing(evm_chain: Chain, evm_adapter: EvmAdapter) -> None:
    # Given a fresh threshold key's address with 0.001 ETH and no token
    key = EcdsaKey.generate()
    await evm_chain.fund(key.address, eth=10**15)
    # Then more ETH than it holds, a token it lacks, or gas it cannot pay are refused unsigned
    with pytest.raises(InsufficientFunds):
        await build(evm_adapter, key, eth(), ETH)
    with pytest.raises(InsufficientFunds):
        await build(evm_adapter, key, usdc(), USDC)
    await evm_chain.fund(key.address, usdc=USDC)
    with pytest.raises(InsufficientGas):
        await build(evm_adapter, key, usdc(), USDC, fee_rate=10**13)
    # And a self-transfer, a bad recipient and another network's currency are refused
    with pytest.raises(TransferRejected, match="itself"):
        await build(evm_adapter, key, eth(), 1, to=key.address)
    with pytest.raises(TransferRejected, match="malformed"):
        await build(evm_adapter, key, eth(), 1, to="0x1234")
    with pytest.raises(TransferRejected, match="not a currency"):
        await build(evm_adapter, key, registry().currency("SOL_LOCAL"), 1)
    assert key.signatures == 0


async def test_a_signature_by_another_key_is_refused(evm_chain: Chain, evm_adapter: EvmAdapter, key: EcdsaKey) -> None:
    # Given a transfer built for the threshold key's address
    await evm_chain.fund(key.address, eth=ETH)
    unsigned = await build(evm_adapter, key, eth(), 1000)
    # When it is signed by another key, or the signature is tampered with
    stranger = Account.create()
    foreign = stranger.unsafe_sign_hash(unsigned.signing_payload)
    foreign_signature = foreign.r.to_bytes(32, "big") + foreign.s.to_bytes(32, "big")
    good = key.sign(unsigned.signing_payload)
    for signature in (foreign_signature, good[:-1] + bytes([good[-1] ^ 1]), good[:40]):
        # Then nothing is submitted: INVALID_SIGNATURE
        with pytest.raises(InvalidSignature):
            async with unit_of_work():
                await evm_adapter.submit_transfer(body=unsigned.body, signature=signature)


async def test_a_reverted_transaction_still_pays_its_fee(evm_chain: Chain, evm_adapter: EvmAdapter) -> None:
    # Given an address holding 10 USDC, and two payments of all of it built before either executes
    key = EcdsaKey.generate()
    await evm_chain.fund(key.address, eth=ETH, usdc=10 * USDC)
    await evm_chain.automine(False)
    first = await build(evm_adapter, key, usdc(), 10 * USDC, intent_key="withdrawal:first")
    second = await build(evm_adapter, key, usdc(), 10 * USDC, intent_key="withdrawal:second")
    assert (first.body["nonce"], second.body["nonce"]) == (0, 1)
    # When both are signed, submitted and mined
    hashes = [await sign_and_submit(evm_adapter, key, u) for u in (first, second)]
    await evm_chain.mine()
    ok, reverted = [await evm_adapter.transfer_status(h) for h in hashes]
    # Then the first moved the tokens; the second was included, reverted, and paid its fee
    assert (ok.state, ok.success) == ("included", True)
    assert (reverted.state, reverted.success, reverted.reason_code) == ("included", False, "EXECUTION_REVERTED")
    assert 0 < reverted.fee <= second.fee_limit
    assert await evm_chain.balance(key.address) == ETH - ok.fee - reverted.fee
    assert await evm_adapter.balance_of(address=key.address, currency=usdc()) == 0  # type: ignore[arg-type]


async def test_nonces_are_unique_under_concurrency_and_survive_a_rollback(evm_chain: Chain,
                                                                          evm_adapter: EvmAdapter) -> None:
    key = EcdsaKey.generate()
    await evm_chain.fund(key.address, eth=ETH)

    async def take(intent: str, *, fail: bool = False) -> int:
        async with in_transaction():
            held = await take_nonce(network_id=NETWORK, address=key.address, intent_key=intent, chain_nonce=0)
            if fail:
                raise RuntimeError("crash after taking the nonce, before anything was signed")
            return int(held.nonce)

    # When eight payments take nonces at once, each in its own transaction
    taken = await asyncio.gather(*(take(f"withdrawal:{i}") for i in range(8)))
    # Then each has its own, without a gap
    assert sorted(taken) == list(range(8))
    # And one payment asking again (a retry) gets the same nonce
    assert await take("withdrawal:3") == taken[3]
    # And a transaction that took one and rolled back (a crash) consumed nothing
    with pytest.raises(RuntimeError):
        await take("withdrawal:crashed", fail=True)
    assert await take("withdrawal:next") == 8
    # And a payment given up before its transaction was submitted gives its nonce back to the next
    async with unit_of_work():
        assert await evm_adapter.release_inputs(intent_key="withdrawal:next") == 1
    assert await take("withdrawal:after") == 8
    # But once the node has a transaction with it, the nonce stays with its payment
    unsigned = await build(evm_adapter, key, eth(), 1000, intent_key="withdrawal:submitted")
    await sign_and_submit(evm_adapter, key, unsigned)
    async with unit_of_work():
        assert await evm_adapter.release_inputs(intent_key="withdrawal:submitted") == 0
    rows = await EvmNonce.filter(network=NETWORK, address=key.address).values_list("nonce", flat=True)
    assert len(rows) == len(set(rows))


async def test_a_broadcast_the_node_refuses_gives_its_nonce_back(evm_chain: Chain, evm_adapter: EvmAdapter) -> None:
    # Given a payment built while its address held ETH, which is gone when it is submitted (the
    # chain reverted the funding)
    key = EcdsaKey.generate()
    before_funding = await evm_chain.snapshot()
    await evm_chain.fund(key.address, eth=ETH)
    refused = await build(evm_adapter, key, eth(), ETH // 2, intent_key="withdrawal:refused")
    await evm_chain.revert(before_funding)
    # When the node refuses it
    with pytest.raises(InsufficientFunds):
        await sign_and_submit(evm_adapter, key, refused)
    # Then the nonce holds no submission, is given back when the payment is given up, and the
    # next payment takes it (no gap that would block every later transaction)
    assert (await EvmNonce.get(network=NETWORK, intent_key="withdrawal:refused")).tx_hashes == []
    async with unit_of_work():
        assert await evm_adapter.release_inputs(intent_key="withdrawal:refused") == 1
    await evm_chain.fund(key.address, eth=ETH)
    following = await build(evm_adapter, key, eth(), 1000, intent_key="withdrawal:following")
    assert following.body["nonce"] == refused.body["nonce"] == 0
    tx_hash = await sign_and_submit(evm_adapter, key, following)
    await evm_chain.mine()
    assert (await evm_adapter.transfer_status(tx_hash)).success


async def test_a_stuck_transaction_is_replaced_with_a_higher_fee(evm_chain: Chain, evm_adapter: EvmAdapter) -> None:
    # Given a payment whose transaction waits in the pool (not mined yet: too low a fee for now)
    key = EcdsaKey.generate()
    await evm_chain.fund(key.address, eth=ETH)
    await evm_chain.automine(False)
    stuck = await build(evm_adapter, key, eth(), 12345, intent_key="withdrawal:stuck")
    stuck_hash = await sign_and_submit(evm_adapter, key, stuck)
    assert (await evm_adapter.transfer_status(stuck_hash)).state == "pending"
    # When the same payment is built again (same intent): same nonce, both fees raised >= 10%
    bumped = await build(evm_adapter, key, eth(), 12345, intent_key="withdrawal:stuck")
    assert bumped.body["nonce"] == stuck.body["nonce"] and bumped.body["replacement"] is True
    for fee in ("max_fee_per_gas", "max_priority_fee_per_gas"):
        assert int(bumped.body[fee]) * 100 >= int(stuck.body[fee]) * 110
    replacement_hash = await sign_and_submit(evm_adapter, key, bumped)
    await evm_chain.mine()
    # Then the replacement executed, the stuck one never can (dropped: REPLACED), and only once
    assert (await evm_adapter.transfer_status(replacement_hash)).state == "included"
    dropped = await evm_adapter.transfer_status(stuck_hash)
    assert (dropped.state, dropped.reason_code) == ("dropped", "REPLACED")
    assert await evm_chain.balance(OTHER) >= 12345
    held = await EvmNonce.get(network=NETWORK, intent_key="withdrawal:stuck")
    assert held.tx_hashes == [stuck_hash, replacement_hash]


async def replace(adapter: EvmAdapter, key: EcdsaKey, amount: int, intent_key: str, cap: int):  # type: ignore[no-untyped-def]
    async with unit_of_work():
        return await adapter.build_replacement(currency=eth(), from_address=key.address,  # type: ignore[arg-type]
                                               public_key=key.public_key, to_address=OTHER, amount=amount,
                                               intent_key=intent_key, max_fee_cap=cap)


async def test_a_replacement_is_capped_and_its_fees_count_only_once_it_is_sent(evm_chain: Chain,
                                                                             evm_adapter: EvmAdapter) -> None:
    key = EcdsaKey.generate()
    await evm_chain.fund(key.address, eth=ETH)
    await evm_chain.automine(False)
    # Given nothing of the payment reached the node: there is nothing to replace
    with pytest.raises(TransferRejected) as nothing:
        await replace(evm_adapter, key, 4321, "withdrawal:capped", 10**12)
    assert nothing.value.code == "NOTHING_TO_REPLACE"
    # Given its transaction waits in the pool
    stuck = await build(evm_adapter, key, eth(), 4321, intent_key="withdrawal:capped")
    stuck_hash = await sign_and_submit(evm_adapter, key, stuck)
    # When a replacement would pass the cap on the max fee per gas: refused, nothing recorded
    with pytest.raises(TransferRejected) as capped:
        await replace(evm_adapter, key, 4321, "withdrawal:capped", int(stuck.body["max_fee_per_gas"]))
    assert capped.value.code == "FEE_CAP_REACHED"
    # When replacements are built but not sent: each outbids the sent attempt, not each other
    first = await replace(evm_adapter, key, 4321, "withdrawal:capped", 10**12)
    again = await replace(evm_adapter, key, 4321, "withdrawal:capped", 10**12)
    assert first.body["max_fee_per_gas"] == again.body["max_fee_per_gas"]
    assert int(first.body["max_fee_per_gas"]) * 100 >= int(stuck.body["max_fee_per_gas"]) * 110
    held = await EvmNonce.get(network=NETWORK, intent_key="withdrawal:capped")
    assert int(held.max_fee_per_gas) == int(stuck.body["max_fee_per_gas"])
    # When one is sent, its fees are what the next must outbid
    sent = await sign_and_submit(evm_adapter, key, again)
    held = await EvmNonce.get(network=NETWORK, intent_key="withdrawal:capped")
    assert (held.tx_hashes, int(held.max_fee_per_gas)) == ([stuck_hash, sent], int(again.body["max_fee_per_gas"]))
    # Then once it is mined there is nothing left to replace
    await evm_chain.mine()
    assert (await evm_adapter.transfer_status(sent)).success
    with pytest.raises(TransferRejected) as executed:
        await replace(evm_adapter, key, 4321, "withdrawal:capped", 10**12)
    assert executed.value.code == "ALREADY_EXECUTED"


async def test_a_fee_below_the_base_fee_waits_until_replaced(evm_chain: Chain, evm_adapter: EvmAdapter) -> None:
    if evm_chain.kind == "anvil":
        pytest.skip("anvil refuses a max fee below the base fee at once (-32003) instead of keeping it in its pool")
    # Given a transaction whose max fee per gas is below the base fee: no block can include it
    key = EcdsaKey.generate()
    await evm_chain.fund(key.address, eth=ETH)
    head = await evm_chain.call("eth_getBlockByNumber", "latest", False)
    low = int(head["baseFeePerGas"], 16) // 4
    stuck = await build(evm_adapter, key, eth(), 777, intent_key="withdrawal:low", fee_rate=low)
    stuck_hash = await sign_and_submit(evm_adapter, key, stuck)
    await evm_chain.mine(3)
    # Then it stays pending through blocks
    assert (await evm_adapter.transfer_status(stuck_hash)).state == "pending"
    # When it is replaced at the network's fee
    replacement = await build(evm_adapter, key, eth(), 777, intent_key="withdrawal:low")
    replacement_hash = await sign_and_submit(evm_adapter, key, replacement)
    await evm_chain.mine()
    # Then the replacement is mined and the stuck transaction is dropped as replaced
    assert (await evm_adapter.transfer_status(replacement_hash)).success
    assert (await evm_adapter.transfer_status(stuck_hash)).reason_code == "REPLACED"


async def test_a_node_of_another_chain_gets_nothing_to_sign(evm_chain: Chain) -> None:
    # Given Sepolia's adapter pointed (misconfigured) at the local chain
    adapter = EvmAdapter(registry().network("ethereum-sepolia"), rpc=evm_chain.rpc)
    # Then its first call refuses the node
    with pytest.raises(NetworkUnavailable, match="serves chain 31337"):
        await adapter.latest_height()


async def test_deposits_of_eth_and_a_token_are_credited_once_after_confirmations(
        evm_chain: Chain, evm_adapter: EvmAdapter, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with confirmations_required(settings, tmp_path, NETWORK, 2), evm_enabled():
        # Given a vault with lETH and lUSDC_ETH wallets at its threshold key's address
        vault = await evm_vault()
        start = await evm_chain.height()
        await ChainWatchState.create(network=NETWORK, scanned_height=start)
        # When 1.5 ETH and then 25 USDC arrive, one block each
        hashes = await evm_chain.fund(vault.address, eth=3 * ETH // 2, usdc=25 * USDC)
        # Then the ETH is credited once the token's block confirms it; the token's block is not final
        async with unit_of_work():
            while await deposits.scan_next_block(network_id=NETWORK):
                pass
        assert await Transaction.filter(direction="deposit").values_list("currency_id", flat=True) == ["ETH_LOCAL"]
        # When the chain moves on (1 ETH goes to an address that is not ours) and the watcher reads
        # every final block, then all of them again from the start
        await evm_chain.fund(OTHER, eth=ETH)
        await evm_chain.mine(1)
        for _ in range(2):
            async with unit_of_work():
                await ChainWatchState.filter(network=NETWORK).update(scanned_height=start)
                while await deposits.scan_next_block(network_id=NETWORK):
                    pass
        # Then each deposit is credited exactly once, with its transaction hash and fee
        found = await Transaction.filter(direction="deposit").order_by("block_height")
        assert [(t.currency_id, int(t.amount), t.tx_hash) for t in found] == [
            ("ETH_LOCAL", 3 * ETH // 2, hashes[0]), ("USDC_ETH_LOCAL", 25 * USDC, hashes[1])]
        assert all(t.status == "finished" and int(t.fee) > 0 and t.to_address == vault.address for t in found)
        await vault.eth.refresh_from_db()
        await vault.usdc.refresh_from_db()
        assert balances.parts_of(vault.eth).total == 3 * ETH // 2
        assert balances.parts_of(vault.usdc).total == 25 * USDC


async def test_a_reorg_below_finality_removes_the_unfinal_deposit(
        evm_chain: Chain, evm_adapter: EvmAdapter, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with confirmations_required(settings, tmp_path, NETWORK, 3), evm_enabled():
        # Given a vault, and the chain as it is now (a snapshot)
        vault = await evm_vault()
        start = await evm_chain.height()
        await ChainWatchState.create(network=NETWORK, scanned_height=start)
        fork_point = await evm_chain.snapshot()
        # When 2 ETH arrive in a block that is not final yet (3 confirmations needed)
        await evm_chain.fund(vault.address, eth=2 * ETH)
        await evm_chain.mine(1)
        async with unit_of_work():
            while await deposits.scan_next_block(network_id=NETWORK):
                pass
        assert await Transaction.filter(direction="deposit").count() == 0
        # And the chain reorganizes below finality: those blocks are replaced by others where
        # 0.25 ETH arrives instead
        await evm_chain.revert(fork_point)
        replacing = await evm_chain.fund(vault.address, eth=ETH // 4)
        await evm_chain.mine(4)
        async with unit_of_work():
            while await deposits.scan_next_block(network_id=NETWORK):
                pass
        # Then only the deposit of the final chain is credited; the reorganized one never was
        found = await Transaction.filter(direction="deposit")
        assert [(int(t.amount), t.tx_hash) for t in found] == [(ETH // 4, replacing[0])]
        await vault.eth.refresh_from_db()
        assert balances.parts_of(vault.eth).total == ETH // 4


async def test_a_reorg_deeper_than_finality_halts_the_watcher_instead_of_rewriting_a_final_deposit(
        evm_chain: Chain, evm_adapter: EvmAdapter, settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with confirmations_required(settings, tmp_path, NETWORK, 2), evm_enabled():
        # Given a vault credited with 1 ETH, final (2 confirmations), the block before it read too
        vault = await evm_vault()
        start = await evm_chain.height()
        await ChainWatchState.create(network=NETWORK, scanned_height=start - 1)
        fork_point = await evm_chain.snapshot()
        paid = await evm_chain.fund(vault.address, eth=ETH)
        await evm_chain.mine(1)
        async with unit_of_work():
            while await deposits.scan_next_block(network_id=NETWORK):
                pass
        [credited] = await Transaction.filter(direction="deposit")
        assert credited.tx_hash == paid[0]
        # When the chain reorganizes deeper than that: the blocks are replaced by longer others
        await evm_chain.revert(fork_point)
        await evm_chain.fund(OTHER, eth=ETH)
        await evm_chain.mine(4)
        async with unit_of_work():
            assert await deposits.scan_next_block(network_id=NETWORK) is None
        # Then the watcher is halted at the fork point, naming the deposit credited above it
        state = await ChainWatchState.get(network=NETWORK)
        assert state.halted_at is not None
        assert (state.halt_details["reason"], state.halt_details["fork_height"], state.halt_details["deposit_ids"]) \
            == ("REORG_BEYOND_FINALITY", start, [str(credited.id)])
        # And the final deposit is not rewritten: still credited, nothing more is read until resumed
        await vault.eth.refresh_from_db()
        assert balances.parts_of(vault.eth).total == ETH
        async with unit_of_work():
            assert await deposits.scan_next_block(network_id=NETWORK) is None
        assert (await ChainWatchState.get(network=NETWORK)).scanned_height == state.scanned_height


def test_the_registry_has_ethereum_and_the_real_stablecoin_contracts() -> None:
    # The real contracts (checked against Tether's and Circle's published addresses), 6 decimals
    expected = {
        "USDT_ETH": ("ethereum-mainnet", "0xdAC17F958D2ee523a2206206994597C13D831ec7"),
        "USDC_ETH": ("ethereum-mainnet", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
        "USDC_ETH_TEST": ("ethereum-sepolia", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"),
        "USDC_ETH_LOCAL": ("evm-local", TOKEN_ADDRESS),
    }
    for currency_id, (network_id, contract) in expected.items():
        currency = registry().currency(currency_id)
        assert (currency.network.id, currency.contract, currency.decimals) == (network_id, contract.lower(), 6)
        assert parse_address(contract) == contract  # a valid EIP-55 checksum as published
    chains = {n: registry().network(n) for n in ("ethereum-mainnet", "ethereum-sepolia", NETWORK)}
    assert {n: int(net.params["chain_id"]) for n, net in chains.items()} == {
        "ethereum-mainnet": 1, "ethereum-sepolia": 11155111, NETWORK: 31337}
    for network in chains.values():
        assert (network.adapter, network.family, registry().native_currency(network.id).decimals) == ("evm", "account",
                                                                                                       18)
        # evm-local is enabled; mainnet and Sepolia wait for their node (NETWORK_RPC_URLS) or NETWORKS_ENABLED
        assert network.enabled is (network.id == NETWORK)
