"""The SDK's balance sync (custody_sdk.balance_sync) against the real service: snapshot, webhook
events (delivered by the service, verified by the SDK) and the change log."""

from __future__ import annotations

import json
import random
import uuid
from datetime import timedelta

from core.unit_of_work import unit_of_work
from custody_sdk import BalanceSync, Credentials, Custody, WebhookVerifier, balance_sync
from custody_sdk.openapi.api.webhooks import create_webhook
from custody_sdk.openapi.models import WebhookCreate
from domain import transactions
from domain.withdrawals import lifecycle, pipeline
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.changelog import until_final
from tests.support.sdk import sdk_for, service_clock
from tests.support.wallets import Api, address_of, fund, mine_block, open_wallet, send, vault_with_key, watch
from tests.support.withdrawals import (
    allow_one_time_addresses,
    confirm,
    funded_wallet,
    sign_with_test_key,
    step,
    to_broadcast,
    withdraw,
)

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18


async def _server_state(api: Api) -> tuple[dict, dict]:
    """Per-currency totals and per-(address, currency) balances of the server's snapshot."""
    status, snap = await api.get("/api/v1/asset/balances/currencies", wallets="true")
    assert status == 200
    totals = {c["currency"]["id"]: {p: int(c[f"{p}_atomic"]) for p in ("available", "frozen", "held", "total")}
              for c in snap["currency_balances"]}
    per_wallet = {(w["address"], w["currency_id"]): {p: int(w["balance"][f"{p}_atomic"])
                                                     for p in ("available", "frozen", "held", "total")}
                  for w in snap["wallet_balances"]}
    return totals, per_wallet


def _local_state(sync: BalanceSync) -> tuple[dict, dict]:
    return sync.totals(), {key: balance.parts for key, balance in sync.balances.items()}


async def test_client_survives_duplicates_reordering_and_a_missed_range(client, broker, frozen_clock, monkeypatch):
    # Per-wallet balances one per page: the client seeds from every page of the snapshot
    monkeypatch.setattr(balance_sync, "WALLETS_PAGE_SIZE", 1)
    caller = await make_caller(role="ADMIN")
    api = Api(client, caller)
    ws = await Workspace.get(id=caller.workspace_id)
    hot, cold = await vault_with_key(ws, name="Hot"), await vault_with_key(ws, name="Cold")
    token = await open_wallet(hot, "DUSD_TEST")  # and the hot DETH wallet, same address
    btc = await open_wallet(hot, "DBTC_TEST")
    cold_eth = await open_wallet(cold, "DETH_TEST")
    for wallet in (token, btc, cold_eth):
        await wallet.fetch_related("address")
    evm_hot, evm_cold, btc_hot = token.address.address, cold_eth.address.address, btc.address.address
    # Given a client that loaded the snapshot before anything arrived
    custody = sdk_for(client, caller)
    sync = BalanceSync(custody)
    await sync.reset()

    # When deposits arrive block after block, each delivered as a webhook-style event
    events: list[tuple[str, dict]] = []

    async def deposit(network: str, address: str, amount: int, currency: str | None = None) -> None:
        await fund(network, address, amount, currency_id=currency)
        for tx in await watch(network):
            events.append((str(uuid.uuid4()), transactions.to_resource(tx)))

    await deposit(EVM, evm_hot, ETH)                         # 0: hot DETH v1
    await deposit(EVM, evm_hot, 2 * ETH)                     # 1: hot DETH v2
    await deposit(EVM, evm_hot, 5_000_000, "DUSD_TEST")      # 2: hot DUSD v3
    await deposit(UTXO, btc_hot, 70_000)                     # 3: hot DBTC v1
    await deposit(EVM, evm_cold, 3 * ETH)                    # 4: cold DETH v1
    await deposit(EVM, evm_hot, 4 * ETH)                     # 5: hot DETH v4  (missed)
    await deposit(UTXO, btc_hot, 30_000)                     # 6: hot DBTC v2  (missed)
    await allow_one_time_addresses(ws.id)                    # an outgoing transfer in flight (missed)
    outgoing = (await withdraw(ws, cold_eth, "0x" + "99" * 20, ETH, fee=10**15)).transaction
    events.append((str(uuid.uuid4()), transactions.to_resource(outgoing)))  # 7 (missed)

    # Delivered: duplicates (same event id twice; same transaction under a new event id) and
    # out of order (v2 of hot DETH before v1); events 5, 6 and 7 are never delivered
    deliveries = [events[1], events[0], events[1], events[2], (str(uuid.uuid4()), events[2][1]), events[3],
                  events[4], events[4]]
    applied = [sync.apply_event(event_id, tx) for event_id, tx in deliveries]
    assert applied == [True, True, False, True, False, True, True, False]
    # The late v1 did not overwrite v2
    assert sync.balances[(evm_hot, "DETH_TEST")].parts["total"] == 3 * ETH
    assert sync.balances[(evm_hot, "DETH_TEST")].balance_version == 2
    # The client is behind the server now (events 5-7 were missed)
    server_totals, server_wallets = await _server_state(api)
    assert sync.totals() != server_totals

    # When it reconciles: the snapshot differs, so it catches up from its cursor and checks again
    await until_final()
    assert await sync.sync() is True
    # Then its copy equals the server's snapshot, per currency and per wallet, held included
    assert _local_state(sync) == (server_totals, server_wallets)
    assert sync.totals()["DETH_TEST"]["held"] == ETH + 21_000 * (10**15 // 21_000)
    assert sync.resets == 1 and len(sync.transactions) == 8

    # When it falls so far behind that the log was compacted past its cursor
    saved_cursor = sync.cursor
    await deposit(EVM, evm_cold, ETH)
    frozen_clock.advance(days=400)
    await caller.login()
    await deposit(UTXO, btc_hot, 10_000)
    await until_final()
    async with unit_of_work():
        min_cursor = await transactions.compact(workspace_id=ws.id, retention=timedelta(days=90))
    assert min_cursor > saved_cursor
    # Then the change log answers 410 and the client resets from a fresh snapshot (rule 6)
    await until_final()
    assert await sync.sync() is True
    assert sync.resets == 2 and sync.cursor >= min_cursor
    assert _local_state(sync) == await _server_state(api)
    await custody.aclose()


async def test_without_versions_the_newest_block_wins():
    # A UTXO-style event without balance_version is ordered by block height (rule 2)
    unused = Custody(credentials=Credentials.from_key(client_id="c", private_key=bytes(32)), base_url="http://unused")
    sync = BalanceSync(unused)
    sync.load_snapshot({"cursor": 0, "currency_balances": [], "wallet_balances": []})

    def event(height: int, total: int) -> dict:
        balance = {f"{p}_atomic": str(v) for p, v in (("available", total), ("frozen", 0), ("held", 0),
                                                          ("total", total))}
        return {"id": str(uuid.uuid4()), "currency_id": "DBTC_TEST", "status": "finished", "block_height": height,
                "from": {"external": True, "address": "x", "balance": None},
                "to": {"external": False, "address": "tdvb1abc", "balance": balance, "block_height": height}}

    sync.apply_event("a", event(10, 500))
    sync.apply_event("b", event(9, 400))   # older block arriving late: ignored
    sync.apply_event("c", event(11, 700))
    assert sync.balances[("tdvb1abc", "DBTC_TEST")].parts["total"] == 700


async def test_client_stays_correct_through_withdrawals(client, broker):
    # Given a workspace with a token wallet (and its gas) and a second vault, and a client on its snapshot
    caller = await make_caller(role="ADMIN")
    api = Api(client, caller)
    ws = await Workspace.get(id=caller.workspace_id)
    await allow_one_time_addresses(ws.id)
    hot, cold = await vault_with_key(ws, name="Hot"), await vault_with_key(ws, name="Cold")
    custody = sdk_for(client, caller)
    sync = BalanceSync(custody)
    await sync.reset()
    token = await funded_wallet(hot, "DUSD_TEST", 50_000_000, gas=ETH)
    cold_usd = await open_wallet(cold, "DUSD_TEST")
    # When withdrawals run: a token payout (its gas from the native wallet), an internal transfer,
    # one frozen then unfrozen, one refused by the network
    payout = (await withdraw(ws, token, "0x" + "99" * 20, 10_000_000)).transaction
    await confirm(await to_broadcast(payout, hot.key))
    internal = (await withdraw(ws, token, await address_of(cold_usd), 5_000_000,
                               target_wallet_id=cold_usd.id)).transaction
    await confirm(await to_broadcast(internal, hot.key))
    held = (await withdraw(ws, token, "0x" + "99" * 20, 1_000_000)).transaction
    async with unit_of_work():
        await lifecycle.freeze(principal=None, workspace_id=ws.id, transaction_id=held.id)
    async with unit_of_work():
        await lifecycle.unfreeze(principal=None, workspace_id=ws.id, transaction_id=held.id)
    refused = (await withdraw(ws, token, "0x" + "99" * 20, 2_000_000)).transaction
    await step(pipeline.run_checks, refused)
    await step(pipeline.start_signing, refused)
    await sign_with_test_key(refused, hot.key)
    await step(pipeline.collect_signature, refused)
    await send(hot, "DETH_TEST", "0x" + "98" * 20, 1)  # uses the nonce the signed transfer was built with
    await mine_block(EVM)
    await watch(EVM)
    assert (await step(pipeline.broadcast, refused)).error_code == "NONCE_MISMATCH"
    # And the client receives the events as a webhook delivers them: out of order, some twice, some never
    events = [(str(event.id), json.loads(event.payload)["data"])
              for event in await WebhookEvent.filter(workspace_id=ws.id).order_by("created_at")]
    assert any(data.get("fee_payer") for _, data in events)
    random.Random(3).shuffle(events)
    delivered = events[: len(events) * 2 // 3]
    for event_id, data in delivered + delivered[:5]:
        sync.apply_event(event_id, data)
    # Then after reconciling, its copy equals the server's snapshot per wallet (fee payer included;
    # the cold vault's DETH wallet, opened after the client's snapshot and never touched, is zero)
    await until_final()
    assert await sync.sync() is True
    server_totals, server_wallets = await _server_state(api)
    assert sync.totals() == server_totals
    assert _local_state(sync)[1] == {
        k: v for k, v in server_wallets.items() if any(v.values())}
    local = sync.balances
    assert local[(await address_of(cold_usd), "DUSD_TEST")].parts["total"] == 5_000_000
    assert local[(await address_of(token), "DUSD_TEST")].parts["held"] == 1_000_000
    await custody.aclose()


async def test_verified_webhook_events_keep_the_copy_equal_to_the_server(client, worker, receiver):
    # Given a webhook for transaction events, created through the SDK, and a copy loaded from the snapshot
    caller = await make_caller(role="ADMIN")
    ws = await Workspace.get(id=caller.workspace_id)
    wallet = await open_wallet(await vault_with_key(ws), "DETH_TEST")
    await wallet.fetch_related("address")
    async with sdk_for(client, caller) as custody:
        webhook = await custody.call(create_webhook, body=WebhookCreate(url=receiver.url(),
                                                                        event_types=["transaction.*"]))
        verifier = WebhookVerifier(webhook.secret, clock=service_clock)
        sync = BalanceSync(custody)
        await sync.reset()
        # When deposits arrive and the service delivers their events to the receiver
        for amount in (ETH, 2 * ETH):
            await fund(EVM, wallet.address.address, amount)
            await watch(EVM)
        await worker.drain()
        # ...which verifies each and applies it; a delivery that arrives twice counts once
        events = [verifier.verify(received.body, received.headers) for received in receiver.received]
        assert [sync.apply_webhook(event) for event in events + events[:1]] == [True, True, False]
        # Then the events are typed transactions, and the copy equals the server's without the change log
        assert {event.type for event in events} == {"transaction.created"}
        assert sorted(int(event.transaction.amount) for event in events) == [ETH, 2 * ETH]
        assert sync.totals()["DETH_TEST"]["total"] == 3 * ETH
        cursor_before = sync.cursor
        assert await sync.sync() is True and sync.cursor == cursor_before
