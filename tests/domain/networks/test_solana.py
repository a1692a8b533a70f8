"""Solana (domain/networks/solana.py) on LiteSVM, the Solana runtime in process: a vault's 2-of-3
FROST(Ed25519) group key receives SOL and an SPL token and sends both out, every signer subset;
LiteSVM itself refuses a tampered signature. Each test reads Given / When / Then."""

from __future__ import annotations

import base64

import pytest
from nacl.signing import SigningKey
from solders.keypair import Keypair
from solders.message import Message
from solders.pubkey import Pubkey
from solders.signature import Signature
from solders.token.associated import get_associated_token_address
from solders.transaction import Transaction

from domain.currencies import registry
from domain.errors import DomainError
from domain.networks.addresses import InvalidAddress
from domain.networks.base import key_scheme_of, signing_payloads, submit_signed
from domain.networks.solana import SolanaAdapter
from domain.networks.solana_chain import TOKEN_ACCOUNT_SIZE, LiteSvmChain
from tests.support.threshold_keys import SIGNER_SUBSETS, ThresholdKey, ed25519_key
from threshold.scheme import ED25519_SCHEME

NETWORK = "solana-testnet"
SOL = 10**9


@pytest.fixture(scope="module")
def vault_key() -> ThresholdKey:
    return ed25519_key("vault:solana")


@pytest.fixture
def chain() -> LiteSvmChain:
    return LiteSvmChain()


@pytest.fixture
def adapter(chain: LiteSvmChain) -> SolanaAdapter:
    return SolanaAdapter(registry().network(NETWORK), chain=chain)


def usdc() -> tuple[Pubkey, int]:
    currency = registry().currency("USDC_SOL_TEST")
    return Pubkey.from_string(currency.contract), currency.decimals


async def _deposits_to(adapter: SolanaAdapter, address: str, since: int) -> list:
    found = []
    for height in range(since, await adapter.latest_height() + 1):
        block = await adapter.read_block(height)
        found += [t for t in block.transfers if t.to_address == address]
    return found


def test_the_group_key_is_the_solana_address(vault_key: ThresholdKey, adapter: SolanaAdapter) -> None:
    # Given a vault's FROST(Ed25519) group key / When its Solana address is derived
    address = adapter.address_from_public_key(vault_key.group_public_key)
    # Then it is the base58 of the key itself, signed for with FROST(Ed25519)
    assert bytes(Pubkey.from_string(address)) == vault_key.group_public_key
    assert adapter.normalize_address(f" {address} ") == address
    assert key_scheme_of(adapter) == ED25519_SCHEME
    # (base58 has no checksum; "2" * 45 is always over 32 bytes, unlike the address with a digit added)
    for bad in ("", "0x" + "ab" * 20, address[:20], "2" * 45, "O" * 44):
        with pytest.raises(InvalidAddress):
            adapter.normalize_address(bad)


async def test_a_vault_receives_sol_and_a_token_and_sends_both_with_every_signer_subset(
        vault_key: ThresholdKey, chain: LiteSvmChain, adapter: SolanaAdapter) -> None:
    sol, token = registry().currency("SOL_TEST"), registry().currency("USDC_SOL_TEST")
    vault = adapter.address_from_public_key(vault_key.group_public_key)
    mint, decimals = usdc()
    # Given deposits of SOL and of the token to the vault's address
    chain.airdrop(Pubkey.from_string(vault), 5 * SOL)
    chain.mint_tokens(Pubkey.from_string(vault), mint, 1_000_000_000, decimals=decimals)
    # Then the blocks show both as transfers to the vault, as the deposit watcher reads them
    deposits = await _deposits_to(adapter, vault, 1)
    assert [(t.currency_id, t.amount) for t in deposits] == [("SOL_TEST", 5 * SOL), ("USDC_SOL_TEST", 1_000_000_000)]
    assert all(t.success and t.fee == 5000 and t.fee_currency_id == "SOL_TEST" for t in deposits)
    assert await adapter.balance_of(address=vault, currency=token) == 1_000_000_000

    recipient = str(Keypair().pubkey())
    for round_number, signers in enumerate(SIGNER_SUBSETS):
        # When two (or three) participants sign a SOL transfer and a token transfer out
        height = await adapter.latest_height()
        native_before = await adapter.balance_of(address=vault, currency=sol)
        sent = []
        for currency, amount in ((sol, SOL // 10), (token, 25_000_000)):
            unsigned = await adapter.build_transfer(currency=currency, from_address=vault,
                                                    public_key=vault_key.group_public_key, to_address=recipient,
                                                    amount=amount)
            (payload,) = signing_payloads(unsigned)
            assert payload.scheme == ED25519_SCHEME and payload.message == unsigned.signing_payload
            signature = vault_key.sign(payload.message, signers)
            tx_hash = await submit_signed(adapter, body=unsigned.body, signatures=[signature])
            sent.append((tx_hash, unsigned))
        # Then both landed; the first token transfer also created the recipient's token account
        creation = sent[1][1].account_creation_fee
        rent = await chain.minimum_balance_for_rent_exemption(TOKEN_ACCOUNT_SIZE)
        assert creation == (rent if round_number == 0 else 0)
        assert await adapter.balance_of(address=recipient, currency=sol) == (round_number + 1) * SOL // 10
        assert await adapter.balance_of(address=recipient, currency=token) == (round_number + 1) * 25_000_000
        assert await adapter.balance_of(address=vault, currency=sol) == native_before - SOL // 10 - 2 * 5000 - creation
        received = await _deposits_to(adapter, recipient, height + 1)
        assert [(t.tx_hash, t.currency_id, t.amount, t.from_address) for t in received] == [
            (sent[0][0], "SOL_TEST", SOL // 10, vault), (sent[1][0], "USDC_SOL_TEST", 25_000_000, vault)]
        # And the hash is known before submitting, and the tracker sees the transfer landed
        assert adapter.transaction_hash(body=unsigned.body, signature=signature) == sent[1][0]
        status = await adapter.transfer_status(sent[0][0])
        assert (status.state, status.success) == ("included", True)
        # And the chain reports their confirmations, growing with new slots
        slot, confirmations = await adapter.transaction_status(sent[0][0])
        chain.advance(3)
        assert (await adapter.transaction_status(sent[0][0])) == (slot, confirmations + 3)


async def test_litesvm_refuses_a_tampered_threshold_signature(vault_key: ThresholdKey, chain: LiteSvmChain,
                                                              adapter: SolanaAdapter) -> None:
    # Given a funded vault and a transfer signed 2-of-3
    vault = adapter.address_from_public_key(vault_key.group_public_key)
    chain.airdrop(Pubkey.from_string(vault), SOL)
    unsigned = await adapter.build_transfer(currency=registry().currency("SOL_TEST"), from_address=vault,
                                            public_key=vault_key.group_public_key,
                                            to_address=str(Keypair().pubkey()), amount=SOL // 2)
    signature = vault_key.sign(unsigned.signing_payload, (2, 3))
    tampered = bytes([signature[0] ^ 1]) + signature[1:]
    # When the tampered signature goes straight to the runtime / Then LiteSVM refuses it
    message = Message.from_bytes(base64.b64decode(unsigned.body["message"]))
    with pytest.raises(DomainError) as refused:
        await chain.send(Transaction.populate(message, [Signature.from_bytes(tampered)]))
    assert refused.value.code == "INVALID_SIGNATURE"
    # And the adapter refuses it before sending; a signature over another message too
    for bad in (tampered, vault_key.sign(b"another message", (1, 3))):
        with pytest.raises(DomainError) as refused:
            await adapter.submit_transfer(body=unsigned.body, signature=bad)
        assert refused.value.code == "INVALID_SIGNATURE"
    # And nothing moved; the honest signature then goes through, and again is idempotent
    assert await adapter.balance_of(address=vault, currency=registry().currency("SOL_TEST")) == SOL
    first = await adapter.submit_transfer(body=unsigned.body, signature=signature)
    assert await adapter.submit_transfer(body=unsigned.body, signature=signature) == first


async def test_a_body_naming_another_sender_is_refused(vault_key: ThresholdKey, chain: LiteSvmChain,
                                                       adapter: SolanaAdapter) -> None:
    # Given a transfer built by another key holder
    mallory = SigningKey.generate()
    mallory_address = adapter.address_from_public_key(bytes(mallory.verify_key))
    chain.airdrop(Pubkey.from_string(mallory_address), SOL)
    unsigned = await adapter.build_transfer(currency=registry().currency("SOL_TEST"), from_address=mallory_address,
                                            public_key=bytes(mallory.verify_key),
                                            to_address=str(Keypair().pubkey()), amount=SOL // 2)
    # When its body claims the vault as sender / Then it is malformed (the message's signer is not the vault)
    vault = adapter.address_from_public_key(vault_key.group_public_key)
    with pytest.raises(DomainError) as refused:
        await adapter.submit_transfer(body=dict(unsigned.body, **{"from": vault}),
                                      signature=vault_key.sign(unsigned.signing_payload))
    assert refused.value.code == "MALFORMED_TRANSFER"
    # And a key that is not the sender's cannot build for it
    with pytest.raises(DomainError) as refused:
        await adapter.build_transfer(currency=registry().currency("SOL_TEST"), from_address=vault,
                                     public_key=bytes(mallory.verify_key), to_address=mallory_address, amount=1)
    assert refused.value.code == "INVALID_SENDER"


async def test_funds_rent_and_fees_are_checked_when_building(vault_key: ThresholdKey, chain: LiteSvmChain,
                                                             adapter: SolanaAdapter) -> None:
    sol, token = registry().currency("SOL_TEST"), registry().currency("USDC_SOL_TEST")
    vault = adapter.address_from_public_key(vault_key.group_public_key)
    new_account = str(Keypair().pubkey())

    async def refused(currency, amount, to=new_account, fee_rate=None) -> str:  # type: ignore[no-untyped-def]
        with pytest.raises(DomainError) as error:
            await adapter.build_transfer(currency=currency, from_address=vault, public_key=vault_key.group_public_key,
                                         to_address=to, amount=amount, fee_rate=fee_rate)
        return error.value.code

    # Given an empty vault / Then it cannot send SOL, nor a token it does not hold
    assert await refused(sol, SOL) == "INSUFFICIENT_FUNDS"
    assert await refused(token, 1) == "INSUFFICIENT_FUNDS"
    # Given some SOL / Then a first transfer to a new account below the rent-exempt minimum is refused
    chain.airdrop(Pubkey.from_string(vault), SOL)
    assert await refused(sol, 1000) == "AMOUNT_BELOW_RENT_EXEMPT_MINIMUM"
    # And leaving a balance above zero but below the rent-exempt minimum is refused
    assert await refused(sol, SOL - 5000 - 1) == "RENT_EXEMPT_MINIMUM"
    # And sending everything but the fee is allowed
    unsigned = await adapter.build_transfer(currency=sol, from_address=vault, public_key=vault_key.group_public_key,
                                            to_address=new_account, amount=SOL - 5000)
    await adapter.submit_transfer(body=unsigned.body, signature=vault_key.sign(unsigned.signing_payload))
    assert await adapter.balance_of(address=vault, currency=sol) == 0
    # Given tokens but no SOL / Then the token transfer cannot pay its fee
    mint, decimals = usdc()
    chain.mint_tokens(Pubkey.from_string(vault), mint, 100, decimals=decimals)
    assert await refused(token, 100) == "INSUFFICIENT_GAS"
    # And a token account as recipient is refused (tokens sent to it would be lost to its owner's owner)
    chain.airdrop(Pubkey.from_string(vault), SOL)
    assert await refused(token, 1, to=str(get_associated_token_address(Pubkey.from_string(vault), mint))) \
        == "RECIPIENT_IS_TOKEN_ACCOUNT"


async def test_fee_estimates_and_priority_fees(vault_key: ThresholdKey, chain: LiteSvmChain,
                                               adapter: SolanaAdapter) -> None:
    sol, token = registry().currency("SOL_TEST"), registry().currency("USDC_SOL_TEST")
    rent = await chain.minimum_balance_for_rent_exemption(TOKEN_ACCOUNT_SIZE)
    # Given no priority fee / Then SOL costs the base fee, a token at most the base fee and a token account
    assert (await adapter.estimate_fee(currency=sol)).fee == 5000
    estimate = await adapter.estimate_fee(currency=token)
    assert (estimate.fee, estimate.account_creation_fee, estimate.fee_currency_id) == (5000 + rent, rent, "SOL_TEST")
    # Given a priority fee of 2,000,000 micro-lamports per compute unit / Then it adds limit x price
    priced = await adapter.estimate_fee(currency=sol, fee_rate=2_000_000)
    assert (priced.fee, priced.gas_limit, priced.gas_price) == (5000 + 2 * 1000, 1000, 2_000_000)
    # And a transfer built with it carries the compute budget instructions and is accepted
    vault = adapter.address_from_public_key(vault_key.group_public_key)
    chain.airdrop(Pubkey.from_string(vault), SOL)
    unsigned = await adapter.build_transfer(currency=sol, from_address=vault, public_key=vault_key.group_public_key,
                                            to_address=str(Keypair().pubkey()), amount=SOL // 4, fee_rate=2_000_000)
    assert unsigned.fee_limit == 7000
    await adapter.submit_transfer(body=unsigned.body, signature=vault_key.sign(unsigned.signing_payload, (1, 3)))


async def test_signatures_for_address_answers_as_a_cluster_does(chain: LiteSvmChain) -> None:
    # Given an address that received three transfers, in three slots, and one slot without it
    address = Keypair().pubkey()
    first, second = chain.airdrop(address, SOL), chain.airdrop(address, SOL)
    chain.airdrop(Keypair().pubkey(), SOL)
    third = chain.airdrop(address, SOL)
    # Then getSignaturesForAddress lists them newest first, with their slots and no error
    found = await chain.signatures_for_address(address, commitment="confirmed")
    assert [i.signature for i in found] == [third, second, first]
    assert [i.slot for i in found] == sorted((i.slot for i in found), reverse=True)
    assert all(i.error is None and i.confirmation_status == "confirmed" for i in found)
    # And ``before`` and ``until`` are exclusive, ``limit`` cuts the newest end
    assert [i.signature for i in await chain.signatures_for_address(address, before=third, commitment="confirmed")] \
        == [second, first]
    assert [i.signature for i in await chain.signatures_for_address(address, until=first, commitment="confirmed")] \
        == [third, second]
    assert [i.signature for i in await chain.signatures_for_address(address, limit=1, commitment="confirmed")] \
        == [third]
    # And ``finalized`` (the default) lists only slots 32 deep; processed and a limit above 1000 are refused
    assert await chain.signatures_for_address(address) == []
    chain.advance(31)
    assert [i.signature for i in await chain.signatures_for_address(address)] == [third, second, first]
    assert {i.confirmation_status for i in await chain.signatures_for_address(address)} == {"finalized"}
    for wrong in ({"commitment": "processed"}, {"limit": 1001}, {"limit": 0}):
        with pytest.raises(ValueError):
            await chain.signatures_for_address(address, **wrong)  # type: ignore[arg-type]
    # And getTransaction gives the transaction with its slot and balances
    confirmed = await chain.transaction(third)
    assert confirmed is not None and confirmed.slot == found[0].slot
    assert confirmed.transaction.signature == third and str(address) in confirmed.transaction.account_keys


async def test_the_adapter_reads_an_address_from_its_cursor_up_to_the_final_slot(
        vault_key: ThresholdKey, chain: LiteSvmChain, adapter: SolanaAdapter) -> None:
    # Given a vault address and its USDC token account, paid SOL, then USDC by a mint that names
    # only the token account (no instruction names the address itself)
    address = adapter.address_from_public_key(vault_key.group_public_key)
    owner = Pubkey.from_string(address)
    mint, decimals = usdc()
    currency = registry().currency_by_contract(adapter.network.id, str(mint))
    assert currency is not None
    accounts = adapter.watched_accounts(address=address, currencies=[registry().native_currency(NETWORK), currency])
    assert accounts == [address, str(get_associated_token_address(owner, mint))]
    paid_sol = chain.airdrop(owner, SOL)
    created = chain.mint_tokens(owner, mint, 5, decimals=decimals)
    direct = chain.mint_tokens(owner, mint, 7, decimals=decimals, create_account=False)
    slot = await chain.slot()
    # When each account is read up to the slot before the last one (the last one is not final)
    own = await adapter.read_account(account=address, owner=address, since=None, up_to_height=slot - 1)
    token = await adapter.read_account(account=accounts[1], owner=address, since=None, up_to_height=slot - 1)
    # Then the address's history has the SOL and the USDC whose transaction created its token
    # account; the token account's has that one too; the unfinal mint is in neither, and the
    # cursors stop before it
    assert [(t.tx_hash, t.currency_id, t.amount) for b in own.blocks for t in b.transfers] == [
        (paid_sol, registry().native_currency(NETWORK).id, SOL), (created, currency.id, 5)]
    assert [(t.tx_hash, t.amount) for b in token.blocks for t in b.transfers] == [(created, 5)]
    assert (own.cursor, token.cursor, token.cursor_height) == (created, created, slot - 1)
    # When read again from the cursors once the last slot is final
    again = await adapter.read_account(account=accounts[1], owner=address, since=token.cursor, up_to_height=slot)
    # Then only the new transaction is read, found through the token account alone
    assert [(t.tx_hash, t.to_address, t.amount) for b in again.blocks for t in b.transfers] == [(direct, address, 7)]
    assert (await adapter.read_account(account=address, owner=address, since=own.cursor, up_to_height=slot)).blocks \
        == []
