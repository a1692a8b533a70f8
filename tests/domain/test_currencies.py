"""The currency registry (domain/currencies.py): the file is validated, amounts are integers."""

from __future__ import annotations

import json

import pytest

from config import CURRENCIES_FILE
from core.settings import configure
from domain.currencies import (
    RegistryError,
    format_amount,
    parse_amount,
    parse_registry,
    registry,
)


def test_registry_file_is_validated():
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


def test_real_networks_ship_enabled_and_a_disabled_one_is_hidden_until_enabled():
    # Given the shipped registry / Then Solana and Bitcoin (and the local LiteSVM chain) are enabled
    document = json.loads(CURRENCIES_FILE.read_text())
    shipped = parse_registry(document)
    assert {"solana-mainnet", "solana-testnet", "solana-local", "bitcoin-mainnet", "bitcoin-testnet",
            "bitcoin-regtest"} <= {n.id for n in shipped.enabled_networks()}
    assert {"SOL_TEST", "SOL_LOCAL", "BTC_REGTEST", "ETH_LOCAL"} <= {c.id for c in shipped.of_network_type("testnet")}
    # Given a registry with one of them disabled / Then it is hidden from workspaces
    for network in document["networks"]:
        if network["id"] == "solana-testnet":
            network["enabled"] = False
    disabled = parse_registry(document)
    assert "SOL_TEST" not in {c.id for c in disabled.of_network_type("testnet")}
    assert "solana-testnet" not in {n.id for n in disabled.enabled_networks()}
    # When a deployment enables it / Then its currencies are listed; an unknown id is refused
    enabled = parse_registry(document, enable=frozenset({"solana-testnet"}))
    assert {"SOL_TEST", "USDC_SOL_TEST"} <= {c.id for c in enabled.of_network_type("testnet")}
    with pytest.raises(RegistryError, match="NETWORKS_ENABLED"):
        parse_registry(document, enable=frozenset({"nope"}))
    # And SPL mints keep their case (base58), explorer links fill their templates
    usdc = enabled.currency("USDC_SOL_TEST")
    assert usdc.contract == "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"
    assert enabled.currency_by_contract("solana-testnet", usdc.contract) is usdc
    assert enabled.network("bitcoin-mainnet").explorer_url("transaction", tx_hash="ab") == "https://mempool.space/tx/ab"
    assert enabled.network("bitcoin-regtest").explorer_url("transaction", tx_hash="ab") is None
    broken = json.loads(CURRENCIES_FILE.read_text())
    broken["networks"][-1]["explorer"] = {"transaction": "http://example.com/{address}"}
    with pytest.raises(RegistryError, match="explorer"):
        parse_registry(broken)


def test_ethereum_ships_disabled_and_is_enabled_by_its_node_url(settings):
    # Given the shipped registry / Then evm-local is enabled, Ethereum mainnet and Sepolia are not
    shipped = parse_registry(json.loads(CURRENCIES_FILE.read_text()))
    enabled = {n.id for n in shipped.enabled_networks()}
    assert "evm-local" in enabled and not {"ethereum-mainnet", "ethereum-sepolia"} & enabled
    # When a deployment sets Sepolia's node in NETWORK_RPC_URLS / Then Sepolia is enabled
    configure(settings.with_overrides(network_rpc_urls={"ethereum-sepolia": "https://sepolia.node.example"}))
    try:
        assert "ethereum-sepolia" in {n.id for n in registry().enabled_networks()}
        assert {"ETH_TEST", "USDC_ETH_TEST"} <= {c.id for c in registry().of_network_type("testnet")}
        assert "ethereum-mainnet" not in {n.id for n in registry().enabled_networks()}
    finally:
        configure(settings)
