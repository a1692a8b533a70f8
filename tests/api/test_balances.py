"""Balances: /asset/balances, /asset/totals and the snapshot /asset/balances/currencies."""

from __future__ import annotations

from datetime import datetime

from domain import prices
from models.transactions import Transaction
from models.wallets import Wallet
from tests.support.callers import make_caller
from tests.support.changelog import until_final
from tests.support.wallets import Api, fund, open_wallet, vault_with_key, watch
from tests.support.withdrawals import allow_one_time_addresses, withdraw

EVM = "devnet-evm-testnet"
UTXO = "devnet-utxo-testnet"
ETH = 10**18
AMOUNT_FIELDS = {"available", "available_atomic", "frozen", "frozen_atomic", "held", "held_atomic", "total",
                 "total_atomic"}


async def _funded_workspace(client):
    """A workspace with 2 DETH and 0.5 DBTC received, and 0.5 DETH (+ fee limit) in flight out."""
    caller = await make_caller(role="ADMIN")
    from models.workspaces import Workspace

    ws = await Workspace.get(id=caller.workspace_id)
    tv = await vault_with_key(ws)
    eth = await open_wallet(tv, "DETH_TEST")
    btc = await open_wallet(tv, "DBTC_TEST")
    await eth.fetch_related("address")
    await btc.fetch_related("address")
    await fund(EVM, eth.address.address, 2 * ETH)
    await fund(UTXO, btc.address.address, 50_000_000)
    await watch(EVM)
    await watch(UTXO)
    await allow_one_time_addresses(ws.id)
    await withdraw(ws, eth, "0x" + "12" * 20, ETH // 2)  # holds 0.5 DETH plus a 21,000 gwei fee limit
    await until_final()
    return Api(client, caller), ws, eth, btc


async def test_workspace_balances_per_symbol_with_held_and_fiat(client, broker):
    api, _, _, _ = await _funded_workspace(client)
    status, body = await api.get("/api/v1/asset/balances")
    assert status == 200
    symbols = {s["symbol"]: s for s in body["symbol_balances"]}
    held = ETH // 2 + 21_000 * 10**9
    eth = symbols["tDETH"]
    assert AMOUNT_FIELDS | {"symbol", "icon_url", "decimals"} == set(eth)
    assert (eth["total_atomic"], eth["held_atomic"], eth["available_atomic"]) == (str(2 * ETH), str(held),
                                                                                  str(2 * ETH - held))
    assert (eth["total"], eth["decimals"]) == ("2", 18)
    assert symbols["tDBTC"]["total"] == "0.5"
    # 2 DETH x 3000 + 0.5 DBTC x 60000 = 36000 USD; held 0.500021 DETH = 1500.063 USD → 1500.06
    converted = body["converted_balances"]
    assert (converted["total"], converted["held"], converted["symbol"]) == ("36000.00", "1500.06", "USD")
    assert converted["available"] == "34499.94"

    datetime.fromisoformat(converted["relevant_on"].replace("Z", "+00:00"))


async def test_totals_in_the_earlier_form(client, broker):
    api, _, _, _ = await _funded_workspace(client)
    status, body = await api.get("/api/v1/asset/totals")
    assert status == 200
    assert {(t["symbol"], t["balance"], t["balance_atomic"]) for t in body} == {
        ("tDETH", "2", str(2 * ETH)), ("tDBTC", "0.5", "50000000")}
    assert all(set(t) == {"symbol", "icon_url", "decimals", "balance", "balance_atomic"} for t in body)


async def test_snapshot_reports_the_change_log_cursor_of_its_balances(client, broker):
    api, ws, eth, _ = await _funded_workspace(client)
    status, snap = await api.get("/api/v1/asset/balances/currencies")
    assert status == 200
    # two deposits and the outgoing transfer, all at or below the cursor
    assert snap["cursor"] >= max(t.seq for t in await Transaction.filter(workspace_id=ws.id))
    assert snap["min_cursor"] == 0
    datetime.fromisoformat(snap["snapshot_at"].replace("Z", "+00:00"))
    balances = {c["currency"]["id"]: c for c in snap["currency_balances"]}
    assert set(balances) == {"DETH_TEST", "DBTC_TEST"}
    assert AMOUNT_FIELDS | {"currency"} == set(balances["DETH_TEST"])
    assert balances["DETH_TEST"]["currency"]["symbol"] == "tDETH"
    # With wallets=true, per-wallet rows with address and balance_version come from the same state
    status, snap = await api.get("/api/v1/asset/balances/currencies", wallets="true")
    rows = {w["currency_id"]: w for w in snap["wallet_balances"]}
    await eth.fetch_related("address")
    assert rows["DETH_TEST"]["address"] == eth.address.address and rows["DETH_TEST"]["balance_version"] == 2
    assert rows["DETH_TEST"]["balance"]["held_atomic"] == balances["DETH_TEST"]["held_atomic"]
    status, answer = await api.get("/api/v1/asset/balances/currencies", wallets="perhaps")
    assert status == 400


async def test_a_currency_without_a_price_has_no_converted_balances(client, broker):
    class NoPrices:
        fiat_symbol = "USD"

        def price(self, currency_id):
            return None

    api, _, eth, _ = await _funded_workspace(client)
    prices.set_price_source(NoPrices())
    try:
        status, asset = await api.get(f"/api/v1/asset/{eth.id}")
        assert status == 200 and asset["converted_balances"] is None and asset["converted_balance"] is None
        status, body = await api.get("/api/v1/asset/balances")
        assert body["converted_balances"]["total"] == "0.00"
    finally:
        prices.set_price_source(None)


async def test_an_empty_workspace_and_a_foreign_workspace(client, broker):
    api = Api(client, await make_caller(role="VIEWER"))
    status, snap = await api.get("/api/v1/asset/balances/currencies")
    assert (status, snap["currency_balances"], snap["min_cursor"]) == (200, [], 0)
    assert isinstance(snap["cursor"], int) and snap["cursor"] >= 0
    status, body = await api.get("/api/v1/asset/balances")
    assert body["symbol_balances"] == [] and body["converted_balances"]["total"] == "0.00"
    other = await make_caller(role="ADMIN")
    status, answer = await api.request("GET", "/api/v1/asset/balances",
                                       headers={**api.caller.headers(workspace=other.workspace_id)})
    assert (status, answer["code"]) == (404, "WORKSPACE_NOT_FOUND")
    assert await Wallet.all().count() == 0


async def test_per_wallet_balances_come_in_pages_of_at_most_1000(client, broker):
    # Given a workspace with two wallets
    api, _, eth, btc = await _funded_workspace(client)
    status, whole = await api.get("/api/v1/asset/balances/currencies", wallets="true")
    assert len(whole["wallet_balances"]) == 2 and whole["next_wallets_after"] is None
    # When the per-wallet balances are read one per page
    status, first = await api.get("/api/v1/asset/balances/currencies", wallets="true", wallets_limit="1")
    assert status == 200 and len(first["wallet_balances"]) == 1
    assert first["next_wallets_after"] == first["wallet_balances"][0]["wallet_id"]
    status, second = await api.get("/api/v1/asset/balances/currencies", wallets="true", wallets_limit="1",
                                   wallets_after=first["next_wallets_after"])
    # Then each wallet comes once, in creation order, and every page carries the workspace's totals
    paged = [w["wallet_id"] for w in first["wallet_balances"] + second["wallet_balances"]]
    assert paged == [w["wallet_id"] for w in whole["wallet_balances"]] and set(paged) == {str(eth.id), str(btc.id)}
    assert second["next_wallets_after"] is None
    assert first["currency_balances"] == second["currency_balances"] == whole["currency_balances"]
    # And a page is never larger than 1000
    status, too_big = await api.get("/api/v1/asset/balances/currencies", wallets="true", wallets_limit="1001")
    assert status == 400 and too_big["details"]["field"] == "wallets_limit"
