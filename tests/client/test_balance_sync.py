"""The reference client (client/balance_sync.py) against the server: snapshot + events + change log."""

from __future__ import annotations

import uuid
from datetime import timedelta

from client import balance_sync
from client.balance_sync import BalanceSync
from core.unit_of_work import unit_of_work
from domain import transactions
from models.workspaces import Workspace
from tests.support.callers import make_caller
from tests.support.wallets import Api, fund, open_wallet, vault_with_key, watch

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
    sync = BalanceSync(api.fetch)
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
    async with unit_of_work():                               # an outgoing transfer in flight (missed)
        outgoing = await transactions.record_outgoing(workspace_id=ws.id, wallet_id=cold_eth.id,
                                                      to_address="0x" + "99" * 20, amount=ETH, fee_limit=10**15)
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
    assert await sync.sync() is True
    # Then its copy equals the server's snapshot, per currency and per wallet, held included
    assert _local_state(sync) == (server_totals, server_wallets)
    assert sync.totals()["DETH_TEST"]["held"] == ETH + 10**15
    assert sync.resets == 1 and len(sync.transactions) == 8

    # When it falls so far behind that the log was compacted past its cursor
    saved_cursor = sync.cursor
    await deposit(EVM, evm_cold, ETH)
    frozen_clock.advance(days=400)
    await caller.login()
    await deposit(UTXO, btc_hot, 10_000)
    async with unit_of_work():
        min_cursor = await transactions.compact(workspace_id=ws.id, retention=timedelta(days=90))
    assert min_cursor > saved_cursor
    # Then the change log answers 410 and the client resets from a fresh snapshot (rule 6)
    assert await sync.sync() is True
    assert sync.resets == 2 and sync.cursor >= min_cursor
    assert _local_state(sync) == await _server_state(api)


async def test_without_versions_the_newest_block_wins():
    # A UTXO-style event without balance_version is ordered by block height (rule 2)
    sync = BalanceSync(fetch=None)  # type: ignore[arg-type]
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
