"""GET /api/v1/currencies: the registry, one network type per workspace."""

from __future__ import annotations

import json

import pytest

from domain.currencies import RegistryError, format_amount, parse_amount, parse_registry, registry
from tests.conftest import make_caller

CURRENCY_FIELDS = {"id", "symbol", "descriptor", "decimals", "blockchain_name", "blockchain_icon_url", "icon_url"}


async def test_a_testnet_workspace_sees_testnet_currencies_only(client):
    caller = await make_caller(client, role="VIEWER", network_type="testnet")
    _, response = await client.get("/api/v1/currencies?testnet=true", headers=caller.headers())
    assert response.status == 200
    ids = {c["id"] for c in response.json}
    assert ids == {"DETH_TEST", "DUSD_TEST", "DBTC_TEST"}
    for currency in response.json:
        assert CURRENCY_FIELDS <= set(currency) and currency["network_type"] == "testnet"
    deth = next(c for c in response.json if c["id"] == "DETH_TEST")
    assert (deth["decimals"], deth["blockchain_name"]) == (18, "Devnet EVM Testnet")
    # The other network type (also the spec's default testnet=false) is a 4xx with a code
    for query in ("?testnet=false", ""):
        _, response = await client.get(f"/api/v1/currencies{query}", headers=caller.headers())
        assert (response.status, response.json["code"]) == (400, "CURRENCY_NETWORK_MISMATCH")
    _, response = await client.get("/api/v1/currencies?testnet=maybe", headers=caller.headers())
    assert (response.status, response.json["details"]["field"]) == (400, "testnet")


async def test_a_mainnet_workspace_sees_mainnet_currencies(client):
    caller = await make_caller(client, role="VIEWER", network_type="mainnet")
    _, response = await client.get("/api/v1/currencies?testnet=false", headers=caller.headers())
    assert response.status == 200
    assert {(c["id"], c["decimals"]) for c in response.json} == {("DETH", 18), ("DUSD", 6), ("DBTC", 8)}
    _, response = await client.get("/api/v1/currencies?testnet=true", headers=caller.headers())
    assert (response.status, response.json["code"]) == (400, "CURRENCY_NETWORK_MISMATCH")


def test_registry_file_is_validated():
    from config import CURRENCIES_FILE

    document = json.loads(CURRENCIES_FILE.read_text())
    assert set(parse_registry(document).currencies) == set(registry().currencies)
    broken = json.loads(CURRENCIES_FILE.read_text())
    broken["currencies"][0]["decimals"] = 99
    with pytest.raises(RegistryError, match="decimals"):
        parse_registry(broken)
    broken = json.loads(CURRENCIES_FILE.read_text())
    broken["currencies"].append(dict(broken["currencies"][0], id="OTHER"))  # same symbol, same network type
    with pytest.raises(RegistryError, match="symbol"):
        parse_registry(broken)
    broken = json.loads(CURRENCIES_FILE.read_text())
    utxo_currency = next(c for c in broken["currencies"] if c["network_id"] == "devnet-utxo")
    utxo_currency["contract"] = "0x" + "11" * 20
    with pytest.raises(RegistryError, match="tokens"):
        parse_registry(broken)


def test_amounts_are_formatted_and_parsed_with_integers_only():
    assert format_amount(1_500_000_000_000_000_000, 18) == "1.5"
    assert format_amount(1, 8) == "0.00000001"
    assert format_amount(0, 6) == "0" and format_amount(12_000_000, 6) == "12"
    assert format_amount(10**78 - 1, 18) == "999999999999999999999999999999999999999999999999999999999999.999999999999999999"
    assert parse_amount("1.5", 18) == 1_500_000_000_000_000_000
    assert parse_amount("0.00000001", 8) == 1
    with pytest.raises(ValueError):
        parse_amount("0.000000001", 8)
    with pytest.raises(ValueError):
        parse_amount("1e5", 8)
