"""The gas station end to end ("Done means" of issue 11): on the devnet, a token vault with autofuel
on and no gas sends a token withdrawal that succeeds because the station refuelled it. Real
processes' code: the in-process worker runs every actor (the refuel check, both withdrawals'
pipelines, the real signers with the co-signer's DKG keys); the test only mines blocks and runs the
tracker, as the scheduler would. The refuel and its audit trail are visible."""

from __future__ import annotations

import uuid

from actors import gas_station as gas_station_actors
from core.unit_of_work import unit_of_work
from custody.faucet import faucet_command
from domain.gas_station import configuration
from domain.gas_station.configuration import AssetChange
from domain.withdrawals import pipeline, refuels
from models.audit import AuditEntry
from models.gas_station import Refuel
from models.transactions import Transaction
from models.vaults import Vault
from models.webhooks import WebhookEvent
from tests.support.approvals import make_owner
from tests.support.signing import cosigner_for, designated_signer, settle, status_is
from tests.support.wallets import Api, mine_block, vault_with_key, watch, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    allow_one_time_addresses,
    confirm,
    funded_wallet,
    step,
    to_broadcast,
    until_status,
    withdraw,
)

CAP, TOKEN_FEE, NATIVE_FEE = 2 * 10**16, 65_000 * 10**9, 21_000 * 10**9


async def _track_everything() -> None:
    """What the scheduler does meanwhile: blocks, and the tracker over every broadcast withdrawal."""
    waiting = [w.id for w in await pipeline.tracked_withdrawals()]
    if waiting:
        await mine_block(EVM)
        for transaction_id in waiting:
            await step(pipeline.track, transaction_id)


async def test_a_token_withdrawal_without_gas_succeeds_because_the_station_refuelled_it(client, worker, receiver,
                                                                                        tmp_path):
    owner = await make_owner()
    api = Api(client, owner)
    cosigner = cosigner_for(client, await designated_signer(owner.workspace_id),
                            tmp_path / "cosigner")
    # Given two vaults whose keys come from the DKG: the gas station and a token vault
    vaults = {}
    for name in ("Gas", "Tokens"):
        status, vault = await api.post("/api/v1/vault/accounts", {"name": name})
        assert status == 201, vault
        vaults[name] = vault
        await settle(worker, cosigner, until=status_is(await Vault.get(id=vault["id"]), "ready", "failed"))
    status, gas = await api.post("/api/v1/wallet", {"currency_id": "DETH_TEST", "vault_id": vaults["Gas"]["id"]})
    assert status == 201, gas
    status, tokens = await api.post("/api/v1/wallet", {"currency_id": "DUSD_TEST", "vault_id": vaults["Tokens"]["id"]})
    assert status == 201, tokens
    token_wallet = next(a for a in tokens["assets"] if a["currency"]["id"] == "DUSD_TEST")
    token_address = token_wallet["primary_address"]["address"]
    # And the station holds 1 DETH, the token vault 100 DUSD and no gas at all
    await faucet_command(network=EVM, address=gas["assets"][0]["primary_address"]["address"], amount="1", mine=True)
    await faucet_command(network=EVM, address=token_address, amount="100", currency="DUSD_TEST", mine=True)
    await watch(EVM)
    # And a webhook for the gas station's events and the transactions
    status, _ = await api.post("/api/v1/webhooks", {"url": receiver.url(),
                                                     "event_types": ["transaction.*", "gas_station.*"]})
    assert status == 201
    # When the first vault is assigned as the gas station and autofuel is turned on for the token vault
    status, station = await api.post(f"/api/v1/gas_station/vault/{vaults['Gas']['id']}")
    assert status == 200 and [a["currency_id"] for a in station["assets"]] == ["DETH_TEST"]
    status, autofuel = await api.post(f"/api/v1/vault/accounts/{vaults['Tokens']['id']}/autofuel/activate")
    assert (status, autofuel["autofuel"]) == (200, True)
    # And the token vault sends 10 DUSD to a whitelisted address
    status, entry = await api.post("/api/v1/whitelist/wallets", {"name": "Exchange", "currency_id": "DUSD_TEST",
                                                                  "address": ELSEWHERE_EVM})
    assert status == 201, entry
    status, out = await api.post("/api/v1/transaction", {
        "amount": "10000000", "source_wallet_id": token_wallet["id"], "target_address": ELSEWHERE_EVM,
        "target_whitelisted_asset_id": entry["id"]})
    # Then it is accepted (not 409 INSUFFICIENT_GAS) and, once the station's refuel confirmed, finishes
    assert (status, out["status"]) == (201, "pending"), out
    done = await until_status(uuid.UUID(out["id"]), "finished", "failed", "expired", network=EVM, timeout=120,
                              on_wait=_track_everything)
    assert (done.status, done.error_code) == ("finished", None)
    # And the refuel is visible: a finished internal transfer of the cap from the station to the token vault
    refuel = await Refuel.get(target_vault_id=vaults["Tokens"]["id"])
    refuel_tx = await Transaction.get(id=refuel.transaction_id)
    assert (refuel_tx.status, int(refuel_tx.amount), refuel_tx.destination_type) == ("finished", CAP, "internal")
    assert str(refuel_tx.vault_id) == vaults["Gas"]["id"] and refuel_tx.to_address == token_address
    status, page = await api.get("/api/v1/transactions", vault_id=vaults["Tokens"]["id"])
    assert refuel_tx.id in {uuid.UUID(item["id"]) for item in page["items"]}
    # And the token vault's gas paid the token transfer's fee: cap minus that fee is left
    status, assets = await api.get("/api/v1/asset", vaultID=vaults["Tokens"]["id"])
    by_currency = {a["currency"]["id"]: a["balances"] for a in assets["assets"]}
    assert by_currency["DETH_TEST"]["total_atomic"] == str(CAP - TOKEN_FEE)
    assert by_currency["DUSD_TEST"]["total_atomic"] == str(100 * 10**6 - 10_000_000)
    # And the audit log tells the story
    actions = set(await AuditEntry.filter(workspace_id=owner.workspace_id).values_list("action", flat=True))
    assert {"gas_station.assigned", "gas_station.autofuel_activated", "gas_station.refuel_created"} <= actions
    created = await AuditEntry.get(action="gas_station.refuel_created")
    assert created.details["transaction_id"] == str(refuel_tx.id) and created.details["amount"] == str(CAP)
    # And the refuel's transaction events were published like any withdrawal's
    assert await WebhookEvent.filter(workspace_id=owner.workspace_id, type="transaction.finished").count() == 2


async def test_the_scheduled_retry_sends_a_held_back_refuel_closes_it_and_resumes_the_waiting_withdrawal(
        broker, frozen_clock):
    # Given a token withdrawal waiting for gas whose refuel the station held back (max_gas_price 0)
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    station, target = await vault_with_key(ws, name="Gas"), await vault_with_key(ws, name="Tokens")
    await funded_wallet(station, "DETH_TEST", ETH)
    tokens = await funded_wallet(target, "DUSD_TEST", 10**9)
    async with unit_of_work():
        await configuration.assign_station(principal=None, workspace_id=ws.id, vault_id=station.vault.id)
        await configuration.set_autofuel(principal=None, workspace_id=ws.id, vault_id=target.vault.id, enabled=True)
        await configuration.update_asset(principal=None, workspace_id=ws.id, currency_id="DETH_TEST",
                                         change=AssetChange(max_gas_price=0))
    tx = (await withdraw(ws, tokens, ELSEWHERE_EVM, 1000)).transaction
    async with unit_of_work():
        held = await refuels.check_refuel(workspace_id=ws.id, vault_id=target.vault.id, currency_id="DETH_TEST")
    assert held.action == "held_back"
    await step(pipeline.run_checks, tx)
    # When the fee limit is lifted and the scheduled actor runs after the retry time
    async with unit_of_work():
        await configuration.update_asset(principal=None, workspace_id=ws.id, currency_id="DETH_TEST",
                                         change=AssetChange(max_gas_price=-1))
    frozen_clock.advance(seconds=31)
    await gas_station_actors.retry()
    # Then the held-back refuel is in flight
    row = await Refuel.get(id=held.refuel.id)
    assert row.status == "in_flight"
    # When it is final, the next run closes it, and the waiting withdrawal is on its way again
    refuel_tx = await Transaction.get(id=row.transaction_id)
    await to_broadcast(refuel_tx, station.key)
    assert (await confirm(refuel_tx)).status == "finished"
    await gas_station_actors.retry()
    assert (await Refuel.get(id=row.id)).status == "finished"
    assert (await step(pipeline.start_signing, tx)).status == "signing"
