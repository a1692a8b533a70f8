"""The platform's gas station defaults: per network type, per base asset (spec rule 5).

``config/gas_station.json`` (or ``GAS_STATION_FILE``) maps ``mainnet`` / ``testnet`` to base
assets, each with ``threshold``, ``cap``, ``max_gas_price`` and ``daily_budget`` (integer strings
in the asset's smallest unit). The file is also the list of what the station supports:

* a base asset **listed** is refuelled; listed with ``threshold`` and ``cap`` null it has *no
  default*, so its configuration starts empty and refuelling is skipped until both are set;
* a base asset **not listed** is never refuelled (spec: "absent from the platform configuration");
* only the native coin of an account-family (gas-model) network can be listed; the file is
  checked when it is read, so a UTXO coin or a token there stops the process with a clear error.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from config import GAS_STATION_FILE
from core.settings import get_settings
from domain.currencies import Currency, RegistryError, registry

#: ``max_gas_price`` meaning "no limit".
NO_LIMIT = -1


@dataclass(frozen=True)
class AssetDefaults:
    currency_id: str
    threshold: int | None
    cap: int | None
    max_gas_price: int = NO_LIMIT
    daily_budget: int | None = None

    @property
    def complete(self) -> bool:
        return self.threshold is not None and self.cap is not None


def _amount(value: Any, where: str, *, allow_none: bool = True, minimum: int = 1) -> int | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or not value.lstrip("-").isdigit():
        raise RegistryError(f"{where}: must be an integer string")
    number = int(value)
    if number < minimum:
        raise RegistryError(f"{where}: must be at least {minimum}")
    return number


def parse_defaults(document: Mapping[str, Any]) -> dict[str, dict[str, AssetDefaults]]:
    """The defaults of a document, checked against the currency registry."""
    result: dict[str, dict[str, AssetDefaults]] = {"mainnet": {}, "testnet": {}}
    currencies = registry().currencies
    for network_type in result:
        entries = document.get(network_type) or {}
        if not isinstance(entries, Mapping):
            raise RegistryError(f"gas station defaults: {network_type} must be an object of base assets")
        for currency_id, entry in entries.items():
            where = f"gas station defaults {network_type}.{currency_id}"
            currency = currencies.get(currency_id)
            if currency is None:
                raise RegistryError(f"{where}: not a currency of the registry")
            if not currency.is_native or currency.network.family != "account":
                raise RegistryError(f"{where}: only the native coin of a gas-model network has a gas station")
            if currency.network_type != network_type:
                raise RegistryError(f"{where}: a {currency.network_type} currency")
            if not isinstance(entry, Mapping):
                raise RegistryError(f"{where}: must be an object")
            threshold = _amount(entry.get("threshold"), f"{where}.threshold")
            cap = _amount(entry.get("cap"), f"{where}.cap")
            if (threshold is None) != (cap is None):
                raise RegistryError(f"{where}: threshold and cap are both set or both null")
            if threshold is not None and cap is not None and cap < threshold:
                raise RegistryError(f"{where}: cap must be at least threshold")
            max_gas_price = _amount(entry.get("max_gas_price", str(NO_LIMIT)), f"{where}.max_gas_price",
                                    allow_none=False, minimum=NO_LIMIT)
            budget = _amount(entry.get("daily_budget"), f"{where}.daily_budget")
            result[network_type][currency_id] = AssetDefaults(currency_id, threshold, cap,
                                                              max_gas_price if max_gas_price is not None else NO_LIMIT,
                                                              budget)
    return result


_lock = threading.Lock()
_cache: dict[Path, dict[str, dict[str, AssetDefaults]]] = {}


def defaults_path() -> Path:
    return get_settings().gas_station_file or GAS_STATION_FILE


def all_defaults() -> dict[str, dict[str, AssetDefaults]]:
    """Every default, by network type and base asset (read once per file and process)."""
    path = defaults_path()
    with _lock:
        cached = _cache.get(path)
        if cached is None:
            try:
                document = json.loads(path.read_text())
            except (OSError, ValueError) as exc:
                raise RegistryError(f"cannot read the gas station defaults {path}: {exc}") from exc
            cached = _cache[path] = parse_defaults(document)
        return cached


def defaults_for(currency: Currency) -> AssetDefaults | None:
    """The defaults of a base asset; None when the platform does not support it."""
    return all_defaults()[currency.network_type].get(currency.id)


def supported(currency: Currency) -> bool:
    """Whether the station refuels this currency (a listed base asset of an enabled network)."""
    return currency.network.enabled and defaults_for(currency) is not None
