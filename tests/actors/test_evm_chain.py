"""Ethereum on evm-local end to end (issue 22): through HTTP, a vault whose threshold ECDSA key
came from the 2-of-3 DKG (signers 1 and 2, the client's co-signer) receives ETH from `custody
faucet` on custody dev's real EVM (py-evm behind JSON-RPC), and sends it out: the pipeline checks
it, signers 1 and 2 sign with a presignature from the stock, the node executes it, and the
withdrawal finishes with the fee the node charged. Given / When / Then."""

from __future__ import annotations

import asyncio
import json
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import AsyncIterator, Iterator

import asyncpg
import pytest
from eth_keys import keys as eth_keys

from actors import withdrawals as withdrawal_actors
from config import CURRENCIES_FILE
from core.database_url import direct_url
from core.settings import Settings, configure, get_settings
from core.unit_of_work import unit_of_work
from custody.faucet import faucet_command
from domain.networks import registry as network_registry
from domain.networks.evm import address_of_key
from domain.networks.evm_dev import TOKEN_ADDRESS
from domain.networks.evm_local import serve
from domain.networks.evm_rpc import HttpEvmRpc, RpcError, to_int
from domain.withdrawals import pipeline
from models.audit import AuditEntry
from models.deposits import ChainWatchState
from models.gas_station import Refuel
from models.keys import KeySet
from models.replacements import WithdrawalReplacement
from models.sessions import SigningSession
from models.stock import StockItem
from models.transactions import Transaction
from tests.support.approvals import make_owner
from tests.support.evm import anvil_url  # noqa: F401 - the fixture of the anvil runs
from tests.support.signing import cosigner_for, designated_signer, settle
from tests.support.wallets import Api, watch
from tests.support.withdrawals import allow_one_time_addresses, step, until_status
from tests.support.worker import wait_for
from threshold import ecdsa
from threshold.scheme import ECDSA_SCHEME

NETWORK = "evm-local"
ETH = 10**18
ELSEWHERE = "0x" + "5a" * 20


@pytest.fixture(params=["py-evm", "anvil"])
async def evm_local(request: pytest.FixtureRequest, settings: Settings) -> AsyncIterator[HttpEvmRpc]:
    """custody dev's evm-local: a fresh py-evm chain behind JSON-RPC on loopback, which the
    service (EVM_LOCAL_URL) and the faucet use; again on anvil (same chain id, the test token at
    the same address) when it is installed, rewound to its starting snapshot afterwards."""
    task = None
    if request.param == "py-evm":
        ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(serve("127.0.0.1", 0, ready=ready.set_result, block_interval=0))
        url = await asyncio.wait_for(ready, 60)
    else:
        url = request.getfixturevalue("anvil_url")
    rpc = HttpEvmRpc(url)
    start = None if task is not None else await rpc.request("evm_snapshot", [])
    configure(settings.with_overrides(evm_local_url=url))
    network_registry.clear_adapters()
    await ChainWatchState.filter(network=NETWORK).delete()
    try:
        yield rpc
    finally:
        configure(settings)
        network_registry.clear_adapters()
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        else:
            await rpc.request("evm_setAutomine", [True])
            assert await rpc.request("evm_revert", [start]) is True


async def _drop_pool(rpc: HttpEvmRpc) -> None:
    """Empty the node's pool as a reorganization does (py-evm's evm_revert empties it; anvil's
    keeps it, and has anvil_dropAllTransactions)."""
    try:
        await rpc.request("anvil_dropAllTransactions", [])
    except RpcError:
        pass


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
        waiting = [w.id for w in await pipeline.tracked_withdrawals()]
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


# --------------------------------------------------------------------------------------------
# A stuck transaction replaced with a higher fee (domain.withdrawals.replacement)
# --------------------------------------------------------------------------------------------

REPLACE_AFTER = 60  # config/currencies.json, evm-local's params.replace_after_seconds


@contextmanager
def network_params(folder: Path, **params: object) -> Iterator[None]:
    """Within the block, evm-local's registry params have ``params`` (a registry file of its own)."""
    before = get_settings()
    document = json.loads(CURRENCIES_FILE.read_text())
    for network in document["networks"]:
        if network["id"] == NETWORK:
            network["params"].update(params)
    path = folder / "currencies-params.json"
    path.write_text(json.dumps(document))
    configure(before.with_overrides(currencies_file=path))
    network_registry.clear_adapters()
    try:
        yield
    finally:
        configure(before)
        network_registry.clear_adapters()


async def _stuck_withdrawal(client, worker, tmp_path, evm_local, amount: int,
                            **extra: str) -> tuple[Api, dict, Transaction]:
    """A vault (DKG key) holding 2 ETH on evm-local, the node's automine off, and a withdrawal
    of ``amount`` broadcast and waiting in the node's pool."""
    owner = await make_owner()
    api = Api(client, owner)
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id), tmp_path / "cosigner")
    vault = await _ready_vault(api, worker, cosigner)
    status, body = await api.post("/api/v1/wallet", {"currency_id": "ETH_LOCAL", "vault_id": vault["id"]})
    assert status == 201, body
    wallet = body["assets"][0]
    await faucet_command(network=NETWORK, address=wallet["primary_address"]["address"], amount="2")
    await _mine(evm_local, 2)
    assert [int(d.amount) for d in await watch(NETWORK)] == [2 * ETH]
    await allow_one_time_addresses(uuid.UUID(owner.workspace_id))
    await evm_local.request("evm_setAutomine", [False])  # the node mines only when the test says so
    status, created = await api.post("/api/v1/transaction", {"amount": str(amount), "source_wallet_id": wallet["id"],
                                                            "target_address": ELSEWHERE, **extra})
    assert status == 201, created
    tx = await until_status(uuid.UUID(created["id"]), "broadcast", "failed", timeout=180)
    assert (tx.status, tx.error_code) == ("broadcast", None)
    assert await evm_local.request("eth_getTransactionByHash", [tx.tx_hash]) is not None
    assert await evm_local.request("eth_getTransactionReceipt", [tx.tx_hash]) is None
    return api, wallet, tx


async def _replacement_broadcast(tx: Transaction, number: int) -> WithdrawalReplacement:
    async def sent() -> WithdrawalReplacement | None:
        row = await WithdrawalReplacement.get(transaction_id=tx.id, number=number)
        assert row.state in ("signing", "signed", "broadcast"), (row.state, row.reason_code, row.reason)
        return row if row.state == "broadcast" else None
    return await wait_for(sent, timeout=120)


async def _balances(api: Api, wallet: dict) -> dict:
    status, assets = await api.get("/api/v1/asset")
    assert status == 200
    return next(a["balances"] for a in assets["assets"] if a["id"] == wallet["id"])


async def test_a_stuck_eth_withdrawal_is_replaced_with_a_higher_fee_and_finishes_with_the_replacement(
        client, worker, tmp_path, evm_local, frozen_clock, settings):
    # Given a 0.5 ETH withdrawal broadcast and waiting in the node's pool (the node mines nothing)
    api, wallet, tx = await _stuck_withdrawal(client, worker, tmp_path, evm_local, ETH // 2)
    first_hash, first_limit, first_session = tx.tx_hash, int(tx.fee_limit), tx.signing_session_id
    assert first_limit == 21_000 * int(tx.transfer["max_fee_per_gas"])
    # When the scheduled tracker looks before replace_after_seconds passed, while another
    # transaction holds the withdrawal's row (a slow step of its own, an operator's repair)
    frozen_clock.advance(seconds=REPLACE_AFTER - 1)
    holder = await asyncpg.connect(direct_url(settings.database_url))
    try:
        async with holder.transaction():
            await holder.execute("SELECT 1 FROM transactions WHERE id = $1 FOR UPDATE", tx.id)
            await asyncio.wait_for(withdrawal_actors.track(), timeout=20)
    finally:
        await holder.close()
    # Then it only asked the node and waits, without waiting for the row (the node's answer
    # holds no lock until there is something to look at or write there)
    assert not await WithdrawalReplacement.filter(transaction_id=tx.id).exists()
    # When the clock passes replace_after_seconds and the tracker looks again
    frozen_clock.advance(seconds=2)
    await withdrawal_actors.track()
    waiting = await Transaction.get(id=tx.id)
    # Then a replacement is being signed and the hold already covers its max fee (worst case)
    row = await WithdrawalReplacement.get(transaction_id=tx.id, number=1)
    assert row.state in ("signing", "signed", "broadcast") and row.signing_session_id != first_session
    raised = 21_000 * int(row.transfer["max_fee_per_gas"])
    assert int(waiting.fee_limit) == raised > first_limit and waiting.status == "broadcast"
    assert (await _balances(api, wallet))["held_atomic"] == str(ETH // 2 + raised)
    # And once signed it is broadcast: same nonce, both fees >= 110%, the node holds it instead
    row = await _replacement_broadcast(tx, 1)
    replaced = await Transaction.get(id=tx.id)
    assert replaced.tx_hash == row.tx_hash != first_hash and replaced.status == "broadcast"
    assert row.transfer["nonce"] == tx.transfer["nonce"] and row.transfer["replacement"] is True
    for fee in ("max_fee_per_gas", "max_priority_fee_per_gas"):
        assert int(row.transfer[fee]) * 100 >= int(tx.transfer[fee]) * 110
    assert await evm_local.request("eth_getTransactionByHash", [first_hash]) is None
    assert await evm_local.request("eth_getTransactionByHash", [row.tx_hash]) is not None
    # And it was signed in a new session with presignature material of its own (never reused)
    first_items = set(await StockItem.filter(session_id=first_session).values_list("id", flat=True))
    new_items = set(await StockItem.filter(session_id=row.signing_session_id).values_list("id", flat=True))
    assert first_items and new_items and not first_items & new_items
    assert await StockItem.filter(id__in=list(new_items), state="used").count() == len(new_items)
    # When it waits again but the network's cap is below the next bump
    with network_params(tmp_path, replacement_max_fee_per_gas=int(row.transfer["max_fee_per_gas"])):
        frozen_clock.advance(seconds=REPLACE_AFTER + 1)
        await step(pipeline.track, tx)
    # Then nothing is signed or sent, and the reason is recorded (the withdrawal keeps waiting)
    capped = await WithdrawalReplacement.get(transaction_id=tx.id, number=2)
    assert (capped.state, capped.reason_code, capped.signing_session_id) == ("capped", "FEE_CAP_REACHED", None)
    assert (await Transaction.get(id=tx.id)).tx_hash == row.tx_hash
    assert await AuditEntry.filter(object_id=str(tx.id), action="withdrawal.replacement_capped").exists()
    # When the node mines
    await evm_local.request("evm_setAutomine", [True])

    async def on_wait() -> None:
        await _mine(evm_local)
        await step(pipeline.track, tx)

    done = await until_status(tx.id, "finished", "failed", timeout=120, on_wait=on_wait)
    # Then the withdrawal finished with the replacement, whose fee alone was debited
    assert (done.status, done.error_code, done.tx_hash) == ("finished", None, row.tx_hash)
    receipt = await evm_local.request("eth_getTransactionReceipt", [row.tx_hash])
    charged = to_int(receipt["gasUsed"]) * to_int(receipt["effectiveGasPrice"])
    assert int(done.fee) == charged
    assert await evm_local.request("eth_getTransactionReceipt", [first_hash]) is None
    chain_balance = to_int(await evm_local.request("eth_getBalance", [wallet["primary_address"]["address"], "latest"]))
    assert chain_balance == 2 * ETH - ETH // 2 - charged
    assert to_int(await evm_local.request("eth_getBalance", [ELSEWHERE, "latest"])) == ETH // 2
    balance = await _balances(api, wallet)
    assert (balance["total_atomic"], balance["held_atomic"]) == (str(chain_balance), "0")
    assert await AuditEntry.filter(object_id=str(tx.id), action="withdrawal.replaced").count() == 1


async def test_a_replaced_withdrawal_finishes_with_its_first_attempt_when_that_one_was_mined(
        client, worker, tmp_path, evm_local, frozen_clock):
    # Given a stuck withdrawal, the chain as it is now, and its replacement broadcast
    api, wallet, tx = await _stuck_withdrawal(client, worker, tmp_path, evm_local, ETH // 4)
    snapshot = await evm_local.request("evm_snapshot", [])
    frozen_clock.advance(seconds=REPLACE_AFTER + 1)
    await step(pipeline.track, tx)
    row = await _replacement_broadcast(tx, 1)
    # When the first attempt is mined instead (another node had it: the chain rewinds to before the
    # replacement and the original signed bytes are what gets mined)
    assert await evm_local.request("evm_revert", [snapshot]) is True
    await _drop_pool(evm_local)
    adapter = network_registry.get_adapter(NETWORK)
    async with unit_of_work():
        assert await adapter.submit_transfer(body=tx.transfer, signature=bytes(tx.signature)) == tx.tx_hash
    await evm_local.request("evm_setAutomine", [True])

    async def on_wait() -> None:
        await _mine(evm_local)
        await step(pipeline.track, tx)

    done = await until_status(tx.id, "finished", "failed", timeout=120, on_wait=on_wait)
    # Then the withdrawal finished with its first attempt, and that one's fee was debited once
    assert (done.status, done.error_code, done.tx_hash) == ("finished", None, tx.tx_hash)
    assert done.signing_session_id == tx.signing_session_id and done.transfer == tx.transfer
    receipt = await evm_local.request("eth_getTransactionReceipt", [tx.tx_hash])
    charged = to_int(receipt["gasUsed"]) * to_int(receipt["effectiveGasPrice"])
    assert int(done.fee) == charged
    assert (await adapter.transfer_status(row.tx_hash)).reason_code == "REPLACED"
    chain_balance = to_int(await evm_local.request("eth_getBalance", [wallet["primary_address"]["address"], "latest"]))
    assert chain_balance == 2 * ETH - ETH // 4 - charged
    balance = await _balances(api, wallet)
    assert (balance["total_atomic"], balance["held_atomic"]) == (str(chain_balance), "0")


async def test_a_replacement_the_balance_cannot_hold_is_not_sent_and_the_withdrawal_keeps_waiting(
        client, worker, tmp_path, evm_local, frozen_clock):
    # Given a stuck withdrawal of 0.1 ETH at 10 gwei per gas
    gas_price = 10 * 10**9
    fee = 21_000 * gas_price
    api, wallet, first = await _stuck_withdrawal(client, worker, tmp_path, evm_local, ETH // 10, fee=str(fee))
    assert int(first.fee_limit) == fee
    # And a second withdrawal, behind it in the node's pool, holding everything else
    rest = 2 * ETH - ETH // 10 - 2 * fee
    status, created = await api.post("/api/v1/transaction", {"amount": str(rest), "source_wallet_id": wallet["id"],
                                                            "target_address": ELSEWHERE, "fee": str(fee)})
    assert status == 201, created
    second = await until_status(uuid.UUID(created["id"]), "broadcast", "failed", timeout=180)
    assert second.status == "broadcast" and second.transfer["nonce"] == first.transfer["nonce"] + 1
    assert (await _balances(api, wallet))["available_atomic"] == "0"
    # When the first waited replace_after_seconds and the tracker looks
    frozen_clock.advance(seconds=REPLACE_AFTER + 1)
    await step(pipeline.track, first)
    # Then no replacement is signed or sent: the raised fee limit cannot be held; the reason is recorded
    row = await WithdrawalReplacement.get(transaction_id=first.id, number=1)
    assert (row.state, row.reason_code, row.signing_session_id) == ("deferred", "INSUFFICIENT_BALANCE", None)
    waiting = await Transaction.get(id=first.id)
    assert (waiting.status, waiting.tx_hash, int(waiting.fee_limit)) == ("broadcast", first.tx_hash, fee)
    entry = await AuditEntry.get(object_id=str(first.id), action="withdrawal.replacement_deferred")
    assert entry.details["reason_code"] == "INSUFFICIENT_BALANCE"
    assert int(entry.details["needed_fee_limit"]) > fee
    assert await SigningSession.filter(purpose__startswith=f"withdrawal:{first.id}").count() == 1
    # And it is not tried again before another interval passed
    frozen_clock.advance(seconds=REPLACE_AFTER - 1)
    await step(pipeline.track, first)
    assert await WithdrawalReplacement.filter(transaction_id=first.id).count() == 1
    # When the node mines: both finish with their own attempts, each fee debited once
    await evm_local.request("evm_setAutomine", [True])

    async def on_wait() -> None:
        await _mine(evm_local)
        for row in await Transaction.filter(id__in=[first.id, second.id], status="broadcast"):
            await step(pipeline.track, row)

    await until_status(second.id, "finished", "failed", timeout=120, on_wait=on_wait)
    done = await until_status(first.id, "finished", "failed", timeout=120, on_wait=on_wait)
    assert (done.status, done.tx_hash) == ("finished", first.tx_hash)
    charged = 0
    for tx_hash in (first.tx_hash, second.tx_hash):
        receipt = await evm_local.request("eth_getTransactionReceipt", [tx_hash])
        charged += to_int(receipt["gasUsed"]) * to_int(receipt["effectiveGasPrice"])
    balance = await _balances(api, wallet)
    assert (balance["total_atomic"], balance["held_atomic"]) == (str(2 * ETH - ETH // 10 - rest - charged), "0")


async def test_a_stuck_erc20_withdrawal_is_replaced_and_its_fee_held_and_paid_in_eth(
        client, worker, tmp_path, evm_local, frozen_clock):
    # Given a vault holding 1 ETH and 100 USDC (the test ERC-20) on evm-local
    owner = await make_owner()
    api = Api(client, owner)
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id), tmp_path / "cosigner")
    vault = await _ready_vault(api, worker, cosigner)
    status, body = await api.post("/api/v1/wallet", {"currency_id": "USDC_ETH_LOCAL", "vault_id": vault["id"]})
    assert status == 201, body
    by_currency = {a["currency"]["id"]: a for a in body["assets"]}
    gas, tokens = by_currency["ETH_LOCAL"], by_currency["USDC_ETH_LOCAL"]
    address = tokens["primary_address"]["address"]
    await faucet_command(network=NETWORK, address=address, amount="1")
    await faucet_command(network=NETWORK, address=address, amount="100", currency="USDC_ETH_LOCAL")
    await _mine(evm_local, 2)
    assert len(await watch(NETWORK)) == 2
    await allow_one_time_addresses(uuid.UUID(owner.workspace_id))
    # And a 10 USDC withdrawal broadcast and waiting in the node's pool
    await evm_local.request("evm_setAutomine", [False])
    status, created = await api.post("/api/v1/transaction", {
        "amount": str(10 * TOKEN_DECIMALS), "source_wallet_id": tokens["id"], "target_address": ELSEWHERE})
    assert status == 201, created
    tx = await until_status(uuid.UUID(created["id"]), "broadcast", "failed", timeout=180)
    assert tx.status == "broadcast", (tx.error_code, tx.error_message)
    # When it waited replace_after_seconds and the tracker looks
    frozen_clock.advance(seconds=REPLACE_AFTER + 1)
    await step(pipeline.track, tx)
    row = await _replacement_broadcast(tx, 1)
    # Then the replacement calls the token again with higher fees, and its fee limit is held in ETH
    assert (row.transfer["data"], row.transfer["nonce"]) == (tx.transfer["data"], tx.transfer["nonce"])
    # (its gas never below the replaced one's: anvil estimates on its pending block, where the
    # replaced transfer already ran and the recipient's balance slot is no longer empty)
    assert row.transfer["gas"] >= tx.transfer["gas"]
    assert int(row.transfer["max_fee_per_gas"]) * 100 >= int(tx.transfer["max_fee_per_gas"]) * 110
    # (the limit held at creation, 100,000 gas at the first rate, stays when it is the larger)
    raised = max(int(row.transfer["gas"]) * int(row.transfer["max_fee_per_gas"]), int(tx.fee_limit))
    assert int((await Transaction.get(id=tx.id)).fee_limit) == raised
    assert (await _balances(api, gas))["held_atomic"] == str(raised)
    assert (await _balances(api, tokens))["held_atomic"] == str(10 * TOKEN_DECIMALS)
    # When the node mines
    await evm_local.request("evm_setAutomine", [True])

    async def on_wait() -> None:
        await _mine(evm_local)
        await step(pipeline.track, tx)

    done = await until_status(tx.id, "finished", "failed", timeout=120, on_wait=on_wait)
    # Then it finished with the replacement, the token left once, and its ETH fee was debited once
    assert (done.status, done.tx_hash, done.error_code, done.error_message) == ("finished", row.tx_hash, None, None)
    receipt = await evm_local.request("eth_getTransactionReceipt", [row.tx_hash])
    charged = to_int(receipt["gasUsed"]) * to_int(receipt["effectiveGasPrice"])
    assert int(done.fee) == charged
    token = await evm_local.request("eth_call", [{"to": TOKEN_ADDRESS, "data": "0x70a08231" + "00" * 12
                                                  + ELSEWHERE[2:]}, "latest"])
    assert int(token, 16) == 10 * TOKEN_DECIMALS
    eth_left = to_int(await evm_local.request("eth_getBalance", [address, "latest"]))
    assert eth_left == ETH - charged
    eth_balance, token_balance = await _balances(api, gas), await _balances(api, tokens)
    assert (eth_balance["total_atomic"], eth_balance["held_atomic"]) == (str(eth_left), "0")
    assert (token_balance["total_atomic"], token_balance["held_atomic"]) == (str(90 * TOKEN_DECIMALS), "0")
