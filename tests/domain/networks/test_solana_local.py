"""custody dev's local Solana chain: one LiteSVM chain in an owner process, used by the others
through RemoteLiteSvmChain (domain/networks/solana_local.py) and credited by ``custody faucet``."""

from __future__ import annotations

import asyncio
from typing import AsyncIterator

import pytest
from nacl.signing import SigningKey
from solders.hash import Hash
from solders.keypair import Keypair
from solders.message import Message
from solders.pubkey import Pubkey
from solders.system_program import TransferParams, transfer
from solders.transaction import Transaction

from core.settings import Settings, configure
from custody.faucet import SOLANA_LOCAL_URL_FILE, faucet_command
from domain.currencies import registry
from domain.networks import registry as network_registry
from domain.networks.base import TransferRejected
from domain.networks.solana import SolanaAdapter
from domain.networks.solana_local import RemoteLiteSvmChain, serve

SOL = 10**9
NETWORK = "solana-local"


@pytest.fixture
async def chain_url() -> AsyncIterator[str]:
    found: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(serve("127.0.0.1", 0, ready=found.set_result))
    try:
        yield await asyncio.wait_for(found, 10)
    finally:
        server.cancel()
        await asyncio.gather(server, return_exceptions=True)


async def test_processes_share_one_chain_through_the_owner_process(chain_url: str) -> None:
    # Given two clients of the owner process (as the worker and the API of custody dev would be)
    worker_side = SolanaAdapter(registry().network(NETWORK), chain=RemoteLiteSvmChain(chain_url))
    other_side = RemoteLiteSvmChain(chain_url)
    key = SigningKey.generate()
    sender = worker_side.address_from_public_key(bytes(key.verify_key))
    # When one side credits an address / Then the other sees the balance and the recorded block
    await other_side.airdrop(Pubkey.from_string(sender), 2 * SOL)
    sol = registry().currency("SOL_LOCAL")
    assert await worker_side.balance_of(address=sender, currency=sol) == 2 * SOL
    slot = await worker_side.latest_height()
    block = await worker_side.read_block(slot)
    assert [(t.to_address, t.amount) for t in block.transfers] == [(sender, 2 * SOL)]
    # When the adapter builds, signs and submits a transfer through it / Then it executes
    recipient = str(Keypair().pubkey())
    unsigned = await worker_side.build_transfer(currency=sol, from_address=sender, public_key=bytes(key.verify_key),
                                                to_address=recipient, amount=SOL // 2)
    tx_hash = await worker_side.submit_transfer(body=unsigned.body, signature=key.sign(unsigned.signing_payload).signature)
    assert (await worker_side.transfer_status(tx_hash)).state == "included"
    assert await worker_side.balance_of(address=recipient, currency=sol) == SOL // 2
    assert await other_side.advance(3) == await worker_side.latest_height()
    # And the chain's refusals cross the wire as the adapter's errors (an unknown blockhash)
    payer = Keypair()
    await other_side.airdrop(payer.pubkey(), SOL)
    stale = Message.new_with_blockhash([transfer(TransferParams(from_pubkey=payer.pubkey(), to_pubkey=Keypair().pubkey(),
                                                                lamports=SOL // 10))], payer.pubkey(), Hash.new_unique())
    with pytest.raises(TransferRejected) as refused:
        await other_side.send(Transaction([payer], stale, Hash.new_unique()))
    assert refused.value.code == "BLOCKHASH_EXPIRED"


async def test_the_faucet_credits_the_shared_chain(chain_url: str, settings: Settings) -> None:
    # Given the service configured with the owner process's URL (what custody dev sets)
    configure(settings.with_overrides(solana_local_url=chain_url))
    network_registry.clear_adapters()
    try:
        address = str(Keypair().pubkey())
        # When custody faucet credits SOL and USDC to an address
        await faucet_command(network=NETWORK, address=address, amount="1.5")
        await faucet_command(network=NETWORK, address=address, amount="25", currency="USDC_SOL_LOCAL", mine=True)
        # Then another client of the chain sees both
        adapter = SolanaAdapter(registry().network(NETWORK), chain=RemoteLiteSvmChain(chain_url))
        assert await adapter.balance_of(address=address, currency=registry().currency("SOL_LOCAL")) == 1_500_000_000
        assert await adapter.balance_of(address=address, currency=registry().currency("USDC_SOL_LOCAL")) == 25_000_000
        # And a real cluster is refused
        with pytest.raises(TransferRejected.__mro__[1]) as refused:  # a DomainError
            await faucet_command(network="solana-testnet", address=address, amount="1")
        assert refused.value.code == "FAUCET_NOT_AVAILABLE"
    finally:
        configure(settings)
        network_registry.clear_adapters()


async def test_the_faucet_finds_custody_devs_chain_from_its_data_folder(chain_url: str, settings: Settings,
                                                                        tmp_path) -> None:
    # Given no SOLANA_LOCAL_URL in the faucet's shell, and no custody dev running in its data folder
    configure(settings.with_overrides(solana_local_url=None, solana_local_chain=False, data_dir=tmp_path))
    network_registry.clear_adapters()
    try:
        address = str(Keypair().pubkey())
        # When the faucet is asked for solana-local, Then it refuses rather than credit a chain of its own
        with pytest.raises(TransferRejected.__mro__[1]) as refused:  # a DomainError
            await faucet_command(network=NETWORK, address=address, amount="1")
        assert refused.value.code == "FAUCET_NOT_AVAILABLE" and "custody dev" in refused.value.message
        # Given custody dev's URL file in the data folder (what custody dev writes while it runs)
        (tmp_path / SOLANA_LOCAL_URL_FILE).write_text(chain_url + "\n")
        # When the faucet credits the address, Then custody dev's chain has it
        await faucet_command(network=NETWORK, address=address, amount="2")
        adapter = SolanaAdapter(registry().network(NETWORK), chain=RemoteLiteSvmChain(chain_url))
        assert await adapter.balance_of(address=address, currency=registry().currency("SOL_LOCAL")) == 2_000_000_000
    finally:
        configure(settings)
        network_registry.clear_adapters()


async def test_the_owner_process_serves_get_signatures_for_address_and_get_transaction(chain_url: str) -> None:
    # Given an address paid twice on the shared chain, then a slot without it
    remote = RemoteLiteSvmChain(chain_url)
    address = Keypair().pubkey()
    first = await remote.airdrop(address, SOL)
    second = await remote.airdrop(address, 2 * SOL)
    await remote.airdrop(Keypair().pubkey(), SOL)
    # Then getSignaturesForAddress answers newest first, with Solana's before / until / limit / commitment
    listed = await remote.signatures_for_address(address, commitment="confirmed")
    assert [(i.signature, i.error, i.confirmation_status) for i in listed] == [
        (second, None, "confirmed"), (first, None, "confirmed")]
    assert listed[0].slot > listed[1].slot and listed[0].block_time is not None
    assert [i.signature for i in await remote.signatures_for_address(address, until=first, commitment="confirmed")] \
        == [second]
    assert [i.signature for i in await remote.signatures_for_address(address, before=second, limit=1,
                                                                      commitment="confirmed")] == [first]
    assert await remote.signatures_for_address(address) == []  # finalized: not 32 slots deep yet
    # And getTransaction gives the transaction's slot and balances (as the adapter reads deposits)
    confirmed = await remote.transaction(second, commitment="confirmed")
    assert confirmed is not None and confirmed.slot == listed[0].slot
    adapter = SolanaAdapter(registry().network(NETWORK), chain=remote)
    read = await adapter.read_account(account=str(address), owner=str(address), since=first,
                                      up_to_height=await remote.slot())
    assert [(t.tx_hash, t.amount) for b in read.blocks for t in b.transfers] == [(second, 2 * SOL)]
    assert read.cursor == second
