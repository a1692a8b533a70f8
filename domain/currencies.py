"""The currency registry: networks and the currencies on them, loaded from a configuration file.

The file (``config/currencies.json``, or the one named by ``CURRENCIES_FILE``) holds two lists:

* ``networks``: ``id``, ``blockchain_name``, ``blockchain_icon_url``, ``network_type``
  (``mainnet`` | ``testnet``), ``family`` (``account``: EVM-like with gas | ``utxo``: BTC-like),
  ``adapter`` (``devnet`` is built in, see :mod:`domain.networks`), ``native_currency_id``,
  ``confirmations`` (blocks a deposit needs before it is final) and adapter ``params``;
  optionally ``explorer`` (link templates: ``transaction`` with ``{tx_hash}``, which gives a
  transaction its ``external_link``; ``address`` with ``{address}``; ``token`` with ``{contract}``)
  and ``enabled`` (default true);
* ``currencies``: ``id``, ``symbol``, ``descriptor``, ``decimals``, ``network_id``,
  ``icon_url`` and ``contract`` (the token contract on an account network, e.g. an SPL mint;
  null for the native coin). A ``0x`` contract is case-insensitive (kept lowercase); any other
  (base58) is kept exactly.

A workspace sees and configures only the currencies of its own network type: everything that
resolves a currency for a workspace goes through :func:`currency_for_workspace`. It also sees
only *enabled* networks: a network with ``"enabled": false`` (Ethereum mainnet and Sepolia,
docs/networks.md) is known to the registry, its adapter and the tools, but lists no currency,
opens no wallet and is not watched, unless the deployment names it in ``NETWORKS_ENABLED`` or
sets its node in ``NETWORK_RPC_URLS``.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from config import CURRENCIES_FILE
from core.settings import get_settings
from domain.errors import NotFound, ValidationFailed

NETWORK_TYPES = frozenset({"mainnet", "testnet"})
FAMILIES = frozenset({"account", "utxo"})
_ID = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")
#: NUMERIC(78,0) holds any 256-bit amount; a unit with more decimals than that makes no sense.
MAX_DECIMALS = 36


class RegistryError(ValueError):
    """The registry file is malformed (raised at load; the message names the entry)."""


@dataclass(frozen=True)
class Network:
    id: str
    blockchain_name: str
    blockchain_icon_url: str
    network_type: str
    family: str
    adapter: str
    native_currency_id: str
    confirmations: int
    params: Mapping[str, Any] = field(default_factory=dict)
    #: Link templates of a block explorer: ``transaction`` ({tx_hash}), ``address`` ({address}),
    #: ``token`` ({contract}).
    explorer: Mapping[str, str] = field(default_factory=dict)
    #: Whether workspaces see the network (its currencies, wallets, the deposit watcher).
    enabled: bool = True

    @property
    def testnet(self) -> bool:
        return self.network_type == "testnet"

    def explorer_url(self, kind: str, **values: str) -> str | None:
        """The explorer link of a transaction, address or token, or None without a template."""
        template = self.explorer.get(kind)
        return template.format(**values) if template else None

    def explorer_link(self, tx_hash: str | None) -> str | None:
        """The explorer page of ``tx_hash`` on this network (None without a template or hash)."""
        return self.explorer_url("transaction", tx_hash=tx_hash) if tx_hash else None


@dataclass(frozen=True)
class Currency:
    id: str
    symbol: str
    descriptor: str
    decimals: int
    network: Network
    icon_url: str
    contract: str | None = None

    @property
    def is_native(self) -> bool:
        return self.contract is None

    @property
    def network_type(self) -> str:
        return self.network.network_type


@dataclass(frozen=True)
class Registry:
    networks: dict[str, Network]
    currencies: dict[str, Currency]

    def network(self, network_id: str) -> Network:
        try:
            return self.networks[network_id]
        except KeyError:
            raise NotFound(f"unknown network {network_id!r}", code="NETWORK_NOT_FOUND") from None

    def currency(self, currency_id: str) -> Currency:
        try:
            return self.currencies[currency_id]
        except KeyError:
            raise NotFound(f"unknown currency {currency_id!r}", code="CURRENCY_NOT_FOUND",
                           details={"currency_id": currency_id}) from None

    def native_currency(self, network_id: str) -> Currency:
        return self.currencies[self.network(network_id).native_currency_id]

    def currency_by_contract(self, network_id: str, contract: str | None) -> Currency | None:
        """The currency of ``contract`` on the network (``None`` = the native coin)."""
        if contract is None:
            return self.native_currency(network_id)
        contract = normalize_contract(contract)
        for currency in self.currencies.values():
            if currency.network.id == network_id and currency.contract is not None and currency.contract == contract:
                return currency
        return None

    def of_network_type(self, network_type: str) -> list[Currency]:
        """The currencies of enabled networks of ``network_type`` (what a workspace sees)."""
        return [c for c in self.currencies.values() if c.network.network_type == network_type and c.network.enabled]

    def enabled_networks(self) -> list[Network]:
        return [n for n in self.networks.values() if n.enabled]


def normalize_contract(contract: str) -> str:
    """``0x`` contracts (EVM) are case-insensitive: lowercase; base58 ones (SPL mints) are exact."""
    return contract.lower() if contract[:2].lower() == "0x" else contract


_EXPLORER_KINDS = {"transaction": "tx_hash", "address": "address", "token": "contract"}


def _explorer(entry: Mapping[str, Any], where: str) -> dict[str, str]:
    explorer = entry.get("explorer") or {}
    if not isinstance(explorer, Mapping):
        raise RegistryError(f"{where}: explorer must be an object of link templates")
    for kind, template in explorer.items():
        placeholder = _EXPLORER_KINDS.get(kind)
        if placeholder is None or not isinstance(template, str) or not template.startswith("https://") \
                or "{" + placeholder + "}" not in template:
            raise RegistryError(f"{where}: explorer.{kind} must be an https:// template with {{{placeholder}}} "
                                f"(kinds: {sorted(_EXPLORER_KINDS)})")
    return dict(explorer)


def _text(entry: Mapping[str, Any], name: str, where: str, *, optional: bool = False) -> str | None:
    value = entry.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise RegistryError(f"{where}: {name} must be a non-empty string")
    return value


def parse_registry(document: Mapping[str, Any], *, enable: frozenset[str] = frozenset()) -> Registry:
    """Validate a registry document (see the module docstring) and build the registry.

    ``enable`` names networks to enable even when the document says ``"enabled": false``.
    """
    if not isinstance(document, Mapping):
        raise RegistryError("the registry must be a JSON object with networks and currencies")
    networks: dict[str, Network] = {}
    for entry in document.get("networks") or []:
        where = f"network {entry.get('id')!r}"
        network_id = _text(entry, "id", where)
        assert network_id is not None
        if not _ID.match(network_id) or network_id in networks:
            raise RegistryError(f"{where}: id must be unique and match {_ID.pattern}")
        network_type = _text(entry, "network_type", where)
        if network_type not in NETWORK_TYPES:
            raise RegistryError(f"{where}: network_type must be mainnet or testnet")
        family = _text(entry, "family", where)
        if family not in FAMILIES:
            raise RegistryError(f"{where}: family must be one of {sorted(FAMILIES)}")
        confirmations = entry.get("confirmations", 1)
        if not isinstance(confirmations, int) or isinstance(confirmations, bool) or confirmations < 1:
            raise RegistryError(f"{where}: confirmations must be a positive integer")
        params = entry.get("params") or {}
        if not isinstance(params, Mapping):
            raise RegistryError(f"{where}: params must be an object")
        enabled = entry.get("enabled", True)
        if not isinstance(enabled, bool):
            raise RegistryError(f"{where}: enabled must be true or false")
        networks[network_id] = Network(
            id=network_id,
            blockchain_name=_text(entry, "blockchain_name", where),  # type: ignore[arg-type]  # required: never None
            blockchain_icon_url=_text(entry, "blockchain_icon_url", where, optional=True) or "",
            network_type=network_type,
            family=family,
            adapter=_text(entry, "adapter", where),  # type: ignore[arg-type]  # required: never None
            native_currency_id=_text(entry, "native_currency_id", where),  # type: ignore[arg-type]  # required: never None
            confirmations=confirmations,
            params=dict(params),
            explorer=_explorer(entry, where),
            enabled=enabled or network_id in enable,
        )
    currencies: dict[str, Currency] = {}
    symbols: set[tuple[str, str]] = set()
    for entry in document.get("currencies") or []:
        where = f"currency {entry.get('id')!r}"
        currency_id = _text(entry, "id", where)
        assert currency_id is not None
        if not _ID.match(currency_id) or currency_id in currencies:
            raise RegistryError(f"{where}: id must be unique and match {_ID.pattern}")
        network_id = _text(entry, "network_id", where)
        network = networks.get(network_id)  # type: ignore[arg-type]  # required: never None
        if network is None:
            raise RegistryError(f"{where}: unknown network_id {network_id!r}")
        decimals = entry.get("decimals")
        if not isinstance(decimals, int) or isinstance(decimals, bool) or not 0 <= decimals <= MAX_DECIMALS:
            raise RegistryError(f"{where}: decimals must be an integer from 0 to {MAX_DECIMALS}")
        symbol = _text(entry, "symbol", where)
        # Balances are summed per symbol inside a workspace (one network type): keep them unique there.
        if (network.network_type, symbol) in symbols:
            raise RegistryError(f"{where}: symbol {symbol!r} is used twice on {network.network_type}")
        symbols.add((network.network_type, symbol))  # type: ignore[arg-type]  # found above
        contract = _text(entry, "contract", where, optional=True)
        if contract is not None:
            if network.family != "account":
                raise RegistryError(f"{where}: tokens exist only on account (gas) networks")
            contract = normalize_contract(contract)
        currencies[currency_id] = Currency(
            id=currency_id, symbol=symbol, descriptor=_text(entry, "descriptor", where),  # type: ignore[arg-type]  # required: never None
            decimals=decimals, network=network, icon_url=_text(entry, "icon_url", where, optional=True) or "",
            contract=contract,
        )
    for network in networks.values():
        native = currencies.get(network.native_currency_id)
        if native is None or native.network is not network or not native.is_native:
            raise RegistryError(f"network {network.id!r}: native_currency_id must name a native currency of it")
    unknown = enable - set(networks)
    if unknown:
        raise RegistryError(f"NETWORKS_ENABLED or NETWORK_RPC_URLS names networks the registry does not have: {sorted(unknown)}")
    return Registry(networks=networks, currencies=currencies)


_lock = threading.Lock()
_cache: dict[tuple[Path, frozenset[str]], Registry] = {}


def registry_path() -> Path:
    return get_settings().currencies_file or CURRENCIES_FILE


def registry() -> Registry:
    """The registry of the configured file (parsed once per file and process)."""
    path = registry_path()
    settings = get_settings()
    # A network's node set in NETWORK_RPC_URLS enables it (Ethereum mainnet and Sepolia ship disabled).
    enable = frozenset(settings.networks_enabled) | frozenset(settings.network_rpc_urls)
    with _lock:
        cached = _cache.get((path, enable))
        if cached is None:
            try:
                document = json.loads(path.read_text())
            except (OSError, ValueError) as exc:
                raise RegistryError(f"cannot read the currency registry {path}: {exc}") from exc
            cached = _cache[(path, enable)] = parse_registry(document, enable=enable)
        return cached


def list_currencies(*, network_type: str, testnet: bool | None = None) -> list[Currency]:
    """GET /currencies: the currencies of the workspace's network type.

    ``testnet`` left out answers the workspace's own network type (the spec's default
    ``testnet=false`` would refuse a testnet workspace's plain request). Given, it selects the
    list asked for; a workspace sees only its own network type, so the other one is refused
    (400 CURRENCY_NETWORK_MISMATCH) rather than silently swapped.
    """
    if testnet is None:
        testnet = network_type == "testnet"
    asked = "testnet" if testnet else "mainnet"
    if asked != network_type:
        raise ValidationFailed(
            f"this workspace is {network_type}: it sees only {network_type} currencies "
            f"(testnet={'true' if network_type == 'testnet' else 'false'})",
            code="CURRENCY_NETWORK_MISMATCH",
            details={"field": "testnet", "workspace_network_type": network_type},
        )
    return sorted(registry().of_network_type(network_type), key=lambda c: (c.network.id, not c.is_native, c.symbol))


def currency_for_workspace(*, currency_id: str, network_type: str) -> Currency:
    """Resolve a currency a workspace refers to: unknown → 404, other network type → 400."""
    currency = registry().currency(currency_id)
    if not currency.network.enabled:  # not offered by this deployment: as unknown as a missing one
        raise NotFound(f"unknown currency {currency_id!r}", code="CURRENCY_NOT_FOUND",
                       details={"currency_id": currency_id})
    if currency.network_type != network_type:
        raise ValidationFailed(
            f"currency {currency_id} is a {currency.network_type} currency; this workspace is {network_type}",
            code="CURRENCY_NETWORK_MISMATCH",
            details={"field": "currency_id", "currency_id": currency_id, "workspace_network_type": network_type},
        )
    return currency


def format_amount(atomic: int, decimals: int) -> str:
    """An atomic amount as a plain decimal string in whole units: 1500000000000000000, 18 → "1.5".

    Integer arithmetic only; no exponent, no trailing zeros, "0" for zero.
    """
    sign = "-" if atomic < 0 else ""
    whole, fraction = divmod(abs(atomic), 10**decimals)
    if decimals == 0 or fraction == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{str(fraction).rjust(decimals, '0').rstrip('0')}"


def parse_amount(text: str, decimals: int) -> int:
    """A decimal amount in whole units ("1.5") to atomic units; more decimals than allowed is an error."""
    if not isinstance(text, str) or not re.fullmatch(r"\d+(\.\d+)?", text.strip()):
        raise ValueError(f"{text!r} is not a non-negative decimal amount")
    whole, _, fraction = text.strip().partition(".")
    fraction = fraction.rstrip("0")
    if len(fraction) > decimals:
        raise ValueError(f"{text!r} has more than {decimals} decimals")
    return int(whole) * 10**decimals + (int(fraction.ljust(decimals, "0")) if fraction else 0)
