"""The devnet behind the network adapter interface (domain/networks/devnet.py): only the
sending address's key signs for it (a plain Ed25519 key or the vault's threshold key), fee estimates."""

from __future__ import annotations

import pytest
from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from domain.currencies import registry
from domain.errors import DomainError
from domain.networks import devnet
from domain.networks.devnet_utxo import vsize
from domain.networks.registry import get_adapter
from domain.signing import keys, sessions
from models.devnet import DevnetTransaction
from tests.support.signing import ready_vault
from tests.support.wallets import Holder, KeyedVault, fund, mine_block, send

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18


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


async def test_fee_estimates_and_confirmations(database):
    evm, utxo = get_adapter(EVM), get_adapter(UTXO)
    native = await evm.estimate_fee(currency=registry().currency("DETH_TEST"))
    token = await evm.estimate_fee(currency=registry().currency("DUSD_TEST"))
    assert (native.fee, native.fee_currency_id) == (21_000 * evm.gas_price, "DETH_TEST")
    assert (token.fee, token.fee_currency_id, token.gas_limit) == (65_000 * evm.gas_price, "DETH_TEST", 65_000)
    estimate = await utxo.estimate_fee(currency=registry().currency("DBTC_TEST"), fee_rate=3)
    assert (estimate.fee, estimate.vsize) == (vsize(1, 2) * 3, vsize(1, 2))
    assert evm.confirmations_required() >= 1 and utxo.confirmations_required() >= 1


async def test_helper_vault_key_signs_like_a_group_key(database):
    # The test double of tests/support/wallets.py: a vault address funded and spent with its key.
    key = SigningKey.generate()
    tv = KeyedVault(vault=None, key=key, workspace=None)  # type: ignore[arg-type]
    address = get_adapter(EVM).address_from_public_key(tv.public_key)
    await fund(EVM, address, ETH)
    other = Holder(EVM)
    await send(tv, "DETH_TEST", other.address, 1234)
    await mine_block(EVM)
    assert await other.balance("DETH_TEST") == 1234


async def test_a_threshold_signature_of_the_vault_key_spends_from_the_vault_address(client, worker, tmp_path):
    # Given a vault whose key set came out of the real DKG, and its devnet address funded
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
