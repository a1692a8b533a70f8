"""Configuration files shipped with the service (package data).

``currencies.json`` is the network and currency registry (domain.currencies), ``prices.json``
the default USD price table (domain.prices), ``gas_station.json`` the gas station's
defaults per network type and base asset (domain.gas_station.defaults); ``contracts/`` the compiled
contracts of the repository's ``contracts/`` folder (scripts/compile_contracts: ABI and bytecode),
which ``custody dev`` deploys on its local EVM. Settings ``CURRENCIES_FILE`` / ``PRICES_FILE`` / ``GAS_STATION_FILE``
point at replacements; these are the defaults.
"""

from __future__ import annotations

from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parent
CURRENCIES_FILE = CONFIG_DIR / "currencies.json"
PRICES_FILE = CONFIG_DIR / "prices.json"
GAS_STATION_FILE = CONFIG_DIR / "gas_station.json"
CONTRACTS_DIR = CONFIG_DIR / "contracts"
