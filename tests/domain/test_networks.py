"""The devnet behind the network adapter interface: both families, signatures, fees, faucet."""

from __future__ import annotations

import pytest
from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from domain.currencies import registry
from domain.networks import addresses, devnet, devnet_chain
from domain.networks.registry import get_adapter
from domain.networks.base import NetworkAdapter
from domain.networks.devnet_utxo import vsize
from domain.errors import DomainError
from models.devnet import DevnetTransaction, DevnetUtxo
from tests.wallets_support import KeyedVault, fund, mine_block

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18


class Holder:
    """A key and its address on a network (stands in for a vault's group key)."""

    def __init__(self, network_id: str) -> None:
        self.key = SigningKey.generate()
        self.adapter = get_adapter(network_id)
        self.address = self.adapter.address_from_public_key(bytes(self.key.verify_key))

    async def build(self, currency_id: str, to: str, amount: int, **kwargs):
        async with unit_of_work():
            return await self.adapter.build_transfer(currency=registry().currency(currency_id),
                                                     from_address=self.address,
                                                     public_key=bytes(self.key.verify_key),
                                                     to_address=to, amount=amount, **kwargs)

    async def submit(self, unsigned, *, key: SigningKey | None = None) -> str:
        signature = (key or self.key).sign(unsigned.signing_payload).signature
        async with unit_of_work():
            return await self.adapter.submit_transfer(body=unsigned.body, signature=signature)

    async def send(self, currency_id: str, to: str, amount: int, **kwargs) -> str:
        return await self.submit(await self.build(currency_id, to, amount, **kwargs))

    async def balance(self, currency_id: str) -> int:
        return await self.adapter.balance_of(address=self.address, currency=registry().currency(currency_id))


def test_every_registry_network_has_an_adapter_implementing_the_interface():
    for network_id in registry().networks:
        adapter = get_adapter(network_id)
        assert isinstance(adapter, NetworkAdapter)
        assert adapter.network.id == network_id


def test_address_encodings_are_derived_from_the_group_key_and_differ_between_mainnet_and_testnet():
    key = bytes(SigningKey.generate().verify_key)
    evm, evm_test = get_adapter("devnet-evm").address_from_public_key(key), get_adapter(EVM).address_from_public_key(key)
    assert evm == evm_test == addresses.account_address(key) and evm.startswith("0x") and len(evm) == 42
    btc, btc_test = get_adapter("devnet-utxo").address_from_public_key(key), get_adapter(UTXO).address_from_public_key(key)
    assert btc.startswith("dvb1q") and btc_test.startswith("tdvb1q")
    # A testnet address is not an address of the mainnet network, and checksums are checked
    with pytest.raises(addresses.InvalidAddress):
        get_adapter("devnet-utxo").normalize_address(btc_test)
    with pytest.raises(addresses.InvalidAddress):
        get_adapter(UTXO).normalize_address(btc_test[:-1] + ("q" if btc_test[-1] != "q" else "p"))
    assert get_adapter(EVM).normalize_address(evm.upper().replace("0X", "0x")) == evm


async def test_account_native_transfer_pays_gas_used_times_gas_price_and_advances_the_nonce(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, 2 * ETH)
    adapter = alice.adapter
    # When Alice sends 1 coin to Bob
    unsigned = await alice.build("DETH_TEST", bob.address, ETH)
    assert unsigned.body["nonce"] == 0 and unsigned.fee_limit == 21_000 * adapter.gas_price
    tx_hash = await alice.submit(unsigned)
    height = await mine_block(EVM)
    # Then the fee is gas used x gas price, in the native coin, and the nonce moved on
    fee = 21_000 * adapter.gas_price
    assert await alice.balance("DETH_TEST") == 2 * ETH - ETH - fee
    assert await bob.balance("DETH_TEST") == ETH
    assert (await alice.build("DETH_TEST", bob.address, 1)).body["nonce"] == 1
    # And the block shows the transfer
    async with unit_of_work():
        block = await adapter.read_block(height)
    assert [(t.tx_hash, t.to_address, t.amount, t.fee, t.currency_id) for t in block.transfers] == [
        (tx_hash, bob.address, ETH, fee, "DETH_TEST")]


async def test_devnet_accepts_only_transfers_signed_by_the_sending_addresses_key(database):
    alice, mallory = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, ETH)
    unsigned = await alice.build("DETH_TEST", mallory.address, 1000)
    # A signature by another key is refused
    with pytest.raises(DomainError) as refused:
        await alice.submit(unsigned, key=mallory.key)
    assert refused.value.code == "INVALID_SIGNATURE"
    # A body naming another key than the one of the sending address is refused, even when that key signs
    forged = dict(unsigned.body, public_key=bytes(mallory.key.verify_key).hex())
    with pytest.raises(DomainError) as refused:
        async with unit_of_work():
            await alice.adapter.submit_transfer(body=forged, signature=mallory.key.sign(
                devnet.signing_payload(EVM, forged)).signature)
    assert refused.value.code == "INVALID_SIGNATURE"
    # A body changed after signing is refused
    tampered = dict(unsigned.body, amount="999999")
    with pytest.raises(DomainError) as refused:
        async with unit_of_work():
            await alice.adapter.submit_transfer(body=tampered, signature=alice.key.sign(unsigned.signing_payload).signature)
    assert refused.value.code == "INVALID_SIGNATURE"
    assert await DevnetTransaction.filter(kind="transfer").count() == 0


async def test_account_nonces_must_follow_each_other(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, ETH)
    first = await alice.build("DETH_TEST", bob.address, 1000)
    await alice.submit(first)
    # Building again counts the mempool: nonce 1; replaying a nonce-0 body with other content is refused
    assert (await alice.build("DETH_TEST", bob.address, 1000)).body["nonce"] == 1
    stale = dict(first.body, amount="2000")
    with pytest.raises(DomainError) as refused:
        async with unit_of_work():
            await alice.adapter.submit_transfer(body=stale, signature=alice.key.sign(
                devnet.signing_payload(EVM, stale)).signature)
    assert refused.value.code == "NONCE_MISMATCH"
    # The very same signed transfer again is idempotent
    assert await alice.submit(first) == await alice.submit(first)


async def test_a_token_transfer_fails_without_native_gas_and_succeeds_with_it(database):
    alice, bob = Holder(EVM), Holder(EVM)
    await fund(EVM, alice.address, 500_000_000, currency_id="DUSD_TEST")  # 500 DUSD, no native coin
    with pytest.raises(DomainError) as refused:
        await alice.send("DUSD_TEST", bob.address, 100_000_000)
    assert refused.value.code == "INSUFFICIENT_GAS"
    # Given native coin for gas
    await fund(EVM, alice.address, ETH // 100)
    await alice.send("DUSD_TEST", bob.address, 100_000_000)
    await mine_block(EVM)
    assert await bob.balance("DUSD_TEST") == 100_000_000
    assert await alice.balance("DUSD_TEST") == 400_000_000
    assert await alice.balance("DETH_TEST") == ETH // 100 - 65_000 * alice.adapter.gas_price
    # And spending more than the balance (mempool included) is refused up front
    with pytest.raises(DomainError) as refused:
        await alice.send("DETH_TEST", bob.address, ETH)
    assert refused.value.code == "INSUFFICIENT_FUNDS"


async def test_utxo_coin_selection_makes_change_and_pays_fee_by_sat_per_vbyte(database):
    alice, bob = Holder(UTXO), Holder(UTXO)
    for amount in (50_000, 30_000, 20_000):
        await fund(UTXO, alice.address, amount, mine=False)
    await mine_block(UTXO)
    # When Alice pays 60,000 sat at 5 sat/vB
    unsigned = await alice.build("DBTC_TEST", bob.address, 60_000, fee_rate=5)
    # Then the two largest outputs are selected, with change back to Alice
    assert [int(i["amount"]) for i in unsigned.body["inputs"]] == [50_000, 30_000]
    fee = vsize(2, 2) * 5
    assert unsigned.body["outputs"] == [{"address": bob.address, "amount": "60000"},
                                        {"address": alice.address, "amount": str(80_000 - 60_000 - fee)}]
    tx_hash = await alice.submit(unsigned)
    height = await mine_block(UTXO)
    assert await bob.balance("DBTC_TEST") == 60_000
    assert await alice.balance("DBTC_TEST") == 100_000 - 60_000 - fee
    # And the block reports one transfer to Bob: the change is not a transfer
    async with unit_of_work():
        block = await alice.adapter.read_block(height)
    assert [(t.tx_hash, t.to_address, t.amount, t.fee) for t in block.transfers] == [
        (tx_hash, bob.address, 60_000, fee)]


async def test_utxo_change_below_dust_goes_to_the_fee(database):
    alice, bob = Holder(UTXO), Holder(UTXO)
    await fund(UTXO, alice.address, 10_000)
    fee_with_change = vsize(1, 2) * 2
    unsigned = await alice.build("DBTC_TEST", bob.address, 10_000 - fee_with_change - 100, fee_rate=2)
    assert len(unsigned.body["outputs"]) == 1
    assert unsigned.fee_limit == fee_with_change + 100


async def test_utxo_inputs_cannot_be_spent_twice(database):
    alice, bob, carol = Holder(UTXO), Holder(UTXO), Holder(UTXO)
    await fund(UTXO, alice.address, 10_000)
    first = await alice.build("DBTC_TEST", bob.address, 5_000)
    second = await alice.build("DBTC_TEST", carol.address, 5_000)  # built from the same output
    await alice.submit(first)
    with pytest.raises(DomainError) as refused:
        await alice.submit(second)
    assert refused.value.code == "DOUBLE_SPEND"
    # And nothing is left to select until the first one is mined
    with pytest.raises(DomainError) as refused:
        await alice.build("DBTC_TEST", carol.address, 1_000)
    assert refused.value.code == "INSUFFICIENT_FUNDS"
    await mine_block(UTXO)
    assert await DevnetUtxo.filter(address=alice.address, spent_height__isnull=True).count() == 1  # the change


async def test_fee_estimates_and_confirmations(database):
    evm, utxo = get_adapter(EVM), get_adapter(UTXO)
    native = await evm.estimate_fee(currency=registry().currency("DETH_TEST"))
    token = await evm.estimate_fee(currency=registry().currency("DUSD_TEST"))
    assert (native.fee, native.fee_currency_id) == (21_000 * evm.gas_price, "DETH_TEST")
    assert (token.fee, token.fee_currency_id, token.gas_limit) == (65_000 * evm.gas_price, "DETH_TEST", 65_000)
    estimate = await utxo.estimate_fee(currency=registry().currency("DBTC_TEST"), fee_rate=3)
    assert (estimate.fee, estimate.vsize) == (vsize(1, 2) * 3, vsize(1, 2))
    assert evm.confirmations_required() >= 1 and utxo.confirmations_required() >= 1


async def test_faucet_credits_any_address_in_the_next_block_and_blocks_chain(database):
    holder = Holder(UTXO)
    await fund(UTXO, holder.address, 1_000, mine=False)
    assert await holder.balance("DBTC_TEST") == 0  # still in the mempool
    async with unit_of_work():
        assert await devnet_chain.block_due(network_id=UTXO)
    first = await mine_block(UTXO)
    second = await mine_block(UTXO)
    assert await holder.balance("DBTC_TEST") == 1_000
    async with unit_of_work():
        a, b = await holder.adapter.read_block(first), await holder.adapter.read_block(second)
        assert not await devnet_chain.block_due(network_id=UTXO)
    assert b.parent_hash == a.hash and (len(a.transfers), len(b.transfers)) == (1, 0)
    # Bad faucet input is a clear 4xx
    for kwargs, code in (({"address": "nope", "amount": 1_000}, "INVALID_ADDRESS"),
                         ({"address": holder.address, "amount": 0}, "VALIDATION_ERROR"),
                         ({"address": holder.address, "amount": 1_000, "currency_id": "DETH_TEST"},
                          "CURRENCY_NETWORK_MISMATCH")):
        with pytest.raises(DomainError) as refused:
            async with unit_of_work():
                await devnet_chain.faucet(network_id=UTXO, **kwargs)
        assert refused.value.code == code and refused.value.status == 400


async def test_helper_vault_key_signs_like_a_group_key(database):
    # The test double of tests.wallets_support: a vault address funded and spent with its key.
    key = SigningKey.generate()
    tv = KeyedVault(vault=None, key=key, workspace=None)  # type: ignore[arg-type]
    address = get_adapter(EVM).address_from_public_key(tv.public_key)
    await fund(EVM, address, ETH)
    from tests.wallets_support import send

    other = Holder(EVM)
    await send(tv, "DETH_TEST", other.address, 1234)
    await mine_block(EVM)
    assert await other.balance("DETH_TEST") == 1234


async def test_a_threshold_signature_of_the_vault_key_spends_from_the_vault_address(client, worker, tmp_path):
    # Given a vault whose key set came out of the real DKG, and its devnet address funded
    from domain.signing import keys, sessions
    from tests.signing_support import ready_vault

    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    group_key = await keys.group_public_key(vault_id=setup.vault.id, workspace_id=setup.workspace_id)
    adapter = get_adapter(UTXO)
    address = adapter.address_from_public_key(group_key)
    await fund(UTXO, address, 100_000)
    recipient = Holder(UTXO)
    async with unit_of_work():
        unsigned = await adapter.build_transfer(currency=registry().currency("DBTC_TEST"), from_address=address,
                                                public_key=group_key, to_address=recipient.address, amount=40_000)
    # When the signer processes sign the transfer's payload with the vault's threshold key
    async with unit_of_work():
        session = await sessions.request_signature(workspace_id=setup.workspace_id, vault_id=setup.vault.id,
                                                  message=unsigned.signing_payload, purpose="devnet transfer")
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id)
    # Then the devnet accepts it and mines it
    async with unit_of_work():
        await adapter.submit_transfer(body=unsigned.body, signature=signature)
    await mine_block(UTXO)
    assert await recipient.balance("DBTC_TEST") == 40_000
