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
from domain.networks.evm_dev import TOKEN_ADDRESS
from domain.networks.evm_local import serve
from domain.networks.evm_rpc import HttpEvmRpc, to_int
from domain.withdrawals import pipeline
from models.deposits import ChainWatchState
from models.gas_station import Refuel
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


async def _ready_vault(api: Api, worker, cosigner, name: str = "Treasury") -> dict:
    status, vault = await api.post("/api/v1/vault/accounts", {"name": name})
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


TOKEN_DECIMALS = 10**6
CAP = 2 * 10**16  # config/gas_station.json, ETH_LOCAL


async def test_an_erc20_withdrawal_without_gas_goes_through_because_the_station_sent_real_gas(
        client, worker, tmp_path, evm_local):
    owner = await make_owner()
    api = Api(client, owner)
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id), tmp_path / "cosigner")
    # Given two vaults whose threshold ECDSA keys come from the DKG: the gas station and a token vault
    station_vault = await _ready_vault(api, worker, cosigner, "Gas")
    token_vault = await _ready_vault(api, worker, cosigner, "Tokens")
    status, gas = await api.post("/api/v1/wallet", {"currency_id": "ETH_LOCAL", "vault_id": station_vault["id"]})
    assert status == 201, gas
    status, tokens = await api.post("/api/v1/wallet", {"currency_id": "USDC_ETH_LOCAL", "vault_id": token_vault["id"]})
    assert status == 201, tokens
    token_wallet = next(a for a in tokens["assets"] if a["currency"]["id"] == "USDC_ETH_LOCAL")
    token_address = token_wallet["primary_address"]["address"]
    # And the station holds 1 ETH, the token vault 100 USDC (the test ERC-20) and no ETH at all
    await faucet_command(network=NETWORK, address=gas["assets"][0]["primary_address"]["address"], amount="1")
    await faucet_command(network=NETWORK, address=token_address, amount="100", currency="USDC_ETH_LOCAL")
    await _mine(evm_local, 2)
    found = await watch(NETWORK)
    assert sorted((d.currency_id, int(d.amount)) for d in found) == [("ETH_LOCAL", ETH),
                                                                      ("USDC_ETH_LOCAL", 100 * TOKEN_DECIMALS)]
    assert to_int(await evm_local.request("eth_getBalance", [token_address, "latest"])) == 0
    # When the first vault is the gas station and autofuel is on for the token vault
    status, station = await api.post(f"/api/v1/gas_station/vault/{station_vault['id']}")
    assert status == 200 and [a["currency_id"] for a in station["assets"]] == ["ETH_LOCAL"], station
    status, autofuel = await api.post(f"/api/v1/vault/accounts/{token_vault['id']}/autofuel/activate")
    assert (status, autofuel["autofuel"]) == (200, True)
    # And the token vault sends 10 USDC to an outside address
    await allow_one_time_addresses(uuid.UUID(owner.workspace_id))
    status, out = await api.post("/api/v1/transaction", {
        "amount": str(10 * TOKEN_DECIMALS), "source_wallet_id": token_wallet["id"], "target_address": ELSEWHERE})
    # Then it is accepted without gas and, once the station's real refuel is mined and final, finishes
    assert (status, out["status"]) == (201, "pending"), out

    async def on_wait() -> None:
        waiting = await pipeline.broadcast_withdrawals()
        if waiting:
            await _mine(evm_local)
            for transaction_id in waiting:
                await step(pipeline.track, transaction_id)

    done = await until_status(uuid.UUID(out["id"]), "finished", "failed", "expired", timeout=240, on_wait=on_wait)
    assert (done.status, done.error_code, done.error_message) == ("finished", None, None)
    # And the refuel was a real ETH transfer of the cap from the station, signed by its threshold key
    refuel = await Refuel.get(target_vault_id=token_vault["id"])
    refuel_tx = await Transaction.get(id=refuel.transaction_id)
    assert (refuel_tx.status, int(refuel_tx.amount), refuel_tx.destination_type) == ("finished", CAP, "internal")
    assert str(refuel_tx.vault_id) == station_vault["id"] and refuel_tx.to_address == token_address
    refuel_receipt = await evm_local.request("eth_getTransactionReceipt", [refuel_tx.tx_hash])
    assert to_int(refuel_receipt["status"]) == 1
    # And the token left on the chain, its fee paid from the refuelled ETH (the node's fee, debited)
    token = (await evm_local.request("eth_call", [{"to": TOKEN_ADDRESS, "data": "0x70a08231" + "00" * 12
                                                  + ELSEWHERE[2:]}, "latest"]))
    assert int(token, 16) == 10 * TOKEN_DECIMALS
    receipt = await evm_local.request("eth_getTransactionReceipt", [done.tx_hash])
    token_fee = to_int(receipt["gasUsed"]) * to_int(receipt["effectiveGasPrice"])
    assert int(done.fee) == token_fee
    left = to_int(await evm_local.request("eth_getBalance", [token_address, "latest"]))
    assert left == CAP - token_fee
    status, assets = await api.get("/api/v1/asset", vaultID=token_vault["id"])
    by_currency = {a["currency"]["id"]: a["balances"] for a in assets["assets"]}
    assert by_currency["ETH_LOCAL"]["total_atomic"] == str(left)
    assert by_currency["USDC_ETH_LOCAL"]["total_atomic"] == str(90 * TOKEN_DECIMALS)
