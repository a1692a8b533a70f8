"""The currency registry (domain/currencies.py): the file is validated, amounts are integers."""

from __future__ import annotations

import json

import pytest

from domain.currencies import RegistryError, format_amount, parse_amount, parse_registry, registry


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
