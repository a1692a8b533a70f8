"""GET /api/v1/currencies: the registry, one network type per workspace.

The registry file's validation and amount formatting are in tests/domain/test_currencies.py."""

from __future__ import annotations

from tests.support.callers import make_caller

CURRENCY_FIELDS = {"id", "symbol", "descriptor", "decimals", "blockchain_name", "blockchain_icon_url", "icon_url"}


async def test_a_testnet_workspace_sees_testnet_currencies_only(client):
    caller = await make_caller(role="VIEWER", network_type="testnet")
    _, response = await client.get("/api/v1/currencies?testnet=true", headers=caller.headers())
    assert response.status == 200
    ids = {c["id"] for c in response.json}
    assert ids == {"DETH_TEST", "DUSD_TEST", "DBTC_TEST", "SOL_TEST", "USDC_SOL_TEST", "SOL_LOCAL", "USDC_SOL_LOCAL",
                   "BTC_TEST", "BTC_REGTEST", "ETH_LOCAL", "USDC_ETH_LOCAL"}
    for currency in response.json:
        assert CURRENCY_FIELDS <= set(currency) and currency["network_type"] == "testnet"
    deth = next(c for c in response.json if c["id"] == "DETH_TEST")
    assert (deth["decimals"], deth["blockchain_name"]) == (18, "Devnet EVM Testnet")
    # Without the query, the workspace's own network type is answered
    _, plain = await client.get("/api/v1/currencies", headers=caller.headers())
    assert plain.status == 200 and plain.json == response.json
    # The other network type, asked for explicitly, is a 4xx with a code
    _, response = await client.get("/api/v1/currencies?testnet=false", headers=caller.headers())
    assert (response.status, response.json["code"]) == (400, "CURRENCY_NETWORK_MISMATCH")
    _, response = await client.get("/api/v1/currencies?testnet=maybe", headers=caller.headers())
    assert (response.status, response.json["details"]["field"]) == (400, "testnet")


async def test_a_mainnet_workspace_sees_mainnet_currencies(client):
    caller = await make_caller(role="VIEWER", network_type="mainnet")
    _, response = await client.get("/api/v1/currencies?testnet=false", headers=caller.headers())
    assert response.status == 200
    assert {(c["id"], c["decimals"]) for c in response.json} == {("DETH", 18), ("DUSD", 6), ("DBTC", 8), ("SOL", 9),
                                                                  ("USDC_SOL", 6), ("USDT_SOL", 6), ("BTC", 8)}
    _, plain = await client.get("/api/v1/currencies", headers=caller.headers())
    assert plain.status == 200 and plain.json == response.json
    _, response = await client.get("/api/v1/currencies?testnet=true", headers=caller.headers())
    assert (response.status, response.json["code"]) == (400, "CURRENCY_NETWORK_MISMATCH")
