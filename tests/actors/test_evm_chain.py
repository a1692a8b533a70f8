"""Ethereum on evm-local end to end (issue 22): through HTTP, a vault whose threshold ECDSA key
came from the 2-of-3 DKG (signers 1 and 2, the client's co-signer) receives ETH from `custody
faucet` on custody dev's real EVM (py-evm behind JSON-RPC), and sends it out: the pipeline checks
it, signers 1 and 2 sign with a presignature from the stock, the node executes it, and the
withdrawal finishes with the fee the node charged. Given / When / Then."""

from __future__ import annotations

import asyncio
import uuid
from typing import AsyncIterator

import pytest
from eth_keys import keys as eth_keys

from core.settings import Settings, configure
from custody.faucet import faucet_command
from domain.networks import registry as network_registry
from domain.networks.evm import address_of_key
from domain.networks.evm_local import serve
from domain.networks.evm_rpc import HttpEvmRpc, to_int
from domain.withdrawals import pipeline
from models.deposits import ChainWatchState
from models.keys import KeySet
from models.sessions import SigningSession
from models.stock import StockItem
from models.transactions import Transaction
from tests.support.approvals import make_owner
from tests.support.signing import cosigner_for, designated_signer, settle
from tests.support.wallets import Api, watch
from tests.support.withdrawals import allow_one_time_addresses, step, until_status
from threshold import ecdsa
from threshold.scheme import ECDSA_SCHEME

NETWORK = "evm-local"
ETH = 10**18
ELSEWHERE = "0x" + "5a" * 20


@pytest.fixture
async def evm_local(settings: Settings) -> AsyncIterator[HttpEvmRpc]:
    """custody dev's evm-local: a fresh py-evm chain behind JSON-RPC on loopback, which the
    service (EVM_LOCAL_URL) and the faucet use."""
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, ready=ready.set_result, block_interval=0))
    url = await asyncio.wait_for(ready, 60)
    configure(settings.with_overrides(evm_local_url=url))
    network_registry.clear_adapters()
    await ChainWatchState.filter(network=NETWORK).delete()
    try:
        yield HttpEvmRpc(url)
    finally:
        configure(settings)
        network_registry.clear_adapters()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def _mine(rpc: HttpEvmRpc, blocks: int = 1) -> None:
    for _ in range(blocks):
        await rpc.request("evm_mine", [])


async def _ready_vault(api: Api, worker, cosigner) -> dict:
    status, vault = await api.post("/api/v1/vault/accounts", {"name": "Treasury"})
    assert status == 201, vault

    async def all_ready() -> bool:
        found = await KeySet.filter(vault_id=vault["id"]).values_list("status", flat=True)
        return bool(found) and all(s in ("ready", "failed") for s in found)
    await settle(worker, cosigner, until=all_ready, timeout=120)
    assert {k.scheme: k.status for k in await KeySet.filter(vault_id=vault["id"])}[ECDSA_SCHEME] == "ready"
    return vault


async def test_eth_sent_out_of_a_threshold_ecdsa_vault_on_evm_local_through_http(client, worker, tmp_path, evm_local):
    owner = await make_owner()
    api = Api(client, owner)
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id), tmp_path / "cosigner")
    # Given a vault created through the API: its ECDSA key set comes from the DKG with the co-signer
    vault = await _ready_vault(api, worker, cosigner)
    key_set = await KeySet.get(vault_id=vault["id"], scheme=ECDSA_SCHEME)
    # And its ETH wallet, whose address is the Ethereum address of the group key
    status, body = await api.post("/api/v1/wallet", {"currency_id": "ETH_LOCAL", "vault_id": vault["id"]})
    assert status == 201, body
    wallet = body["assets"][0]
    address = wallet["primary_address"]["address"]
    assert address == address_of_key(bytes(key_set.group_public_key))
    # When `custody faucet --network evm-local` credits 2 ETH and the deposit is final
    await faucet_command(network=NETWORK, address=address, amount="2")
    await _mine(evm_local, 2)
    found = await watch(NETWORK)
    assert [(d.currency_id, int(d.amount)) for d in found] == [("ETH_LOCAL", 2 * ETH)]
    # And 0.5 ETH is withdrawn to an outside address through POST /api/v1/transaction
    await allow_one_time_addresses(uuid.UUID(owner.workspace_id))
    status, tx = await api.post("/api/v1/transaction", {"amount": str(ETH // 2), "source_wallet_id": wallet["id"],
                                                       "target_address": ELSEWHERE})
    assert status == 201, tx

    async def on_wait() -> None:
        for row in await Transaction.filter(id=tx["id"], status="broadcast"):
            await _mine(evm_local)
            await step(pipeline.track, row)

    done = await until_status(uuid.UUID(tx["id"]), "finished", "failed", timeout=180, on_wait=on_wait)
    # Then it finished: the node executed it, the recipient holds the amount
    assert (done.status, done.error_code, done.error_message) == ("finished", None, None)
    assert to_int(await evm_local.request("eth_getBalance", [ELSEWHERE, "latest"])) == ETH // 2
    # And the fee debited is the one the node charged (gasUsed x effectiveGasPrice)
    receipt = await evm_local.request("eth_getTransactionReceipt", [done.tx_hash])
    charged = to_int(receipt["gasUsed"]) * to_int(receipt["effectiveGasPrice"])
    assert int(done.fee) == charged > 0
    status, shown = await api.get(f"/api/v1/transactions/{tx['id']}")
    assert (status, shown["status"], shown["fee"]) == (200, "finished", str(charged))
    chain_balance = to_int(await evm_local.request("eth_getBalance", [address, "latest"]))
    assert chain_balance == 2 * ETH - ETH // 2 - charged
    status, assets = await api.get("/api/v1/asset")
    balance = next(a["balances"] for a in assets["assets"] if a["id"] == wallet["id"])
    assert (balance["total_atomic"], balance["held_atomic"]) == (str(chain_balance), "0")
    # And it was signed by signers 1 and 2 with one presignature of the stock; the signature
    # recovers to the vault's address
    session = await SigningSession.get(id=done.signing_session_id)
    assert (session.participants, session.status) == ([1, 2], "completed")
    assert await StockItem.filter(session_id=session.id, state="used").count() == 2
    signature, digest = bytes(session.signature), bytes(session.message)
    recovery = ecdsa.recovery_id(bytes(key_set.group_public_key), digest, signature)
    signer = eth_keys.Signature(signature + bytes([recovery])).recover_public_key_from_msg_hash(digest)
    assert signer.to_checksum_address() == address
