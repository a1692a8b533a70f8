"""Which adapter serves which network: each registry network (domain.currencies) names its
``adapter``; :func:`get_adapter` builds it. A real node adapter registers itself with
:func:`register_adapter` and nothing else in the service changes.

The real networks' adapters (Solana, Bitcoin, EVM) are imported by their factories, when a
network of theirs is first used: their libraries (solders, embit, eth-account and py-evm's
relatives) cost every process that imports this module about 0.3 s of CPU, and most of the
service's processes (and the suite's) never use one. Their key schemes are declared here, so
that :func:`key_scheme_of_network` needs no import (tests/domain/networks/test_registry.py checks
them against the classes).
"""

from __future__ import annotations

from typing import Callable

from domain.currencies import Network, registry
from domain.errors import ValidationFailed
from domain.networks.addresses import InvalidAddress
from domain.networks.base import NetworkAdapter, key_scheme_of
from domain.networks.devnet_account import DevnetAccountAdapter
from domain.networks.devnet_utxo import DevnetUtxoAdapter
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, TAPROOT_SCHEME

AdapterFactory = Callable[[Network], NetworkAdapter]

_factories: dict[tuple[str, str], AdapterFactory] = {}
_adapters: dict[int, tuple[Network, NetworkAdapter]] = {}
_key_schemes: dict[tuple[str, str], str] = {}


def register_adapter(name: str, family: str, factory: AdapterFactory, *, key_scheme: str | None = None) -> None:
    """Make ``adapter: <name>`` usable for networks of ``family`` in the registry.

    ``key_scheme`` (default: the factory's ``key_scheme`` attribute, an adapter class's) is the
    scheme of its networks' keys; a factory replacing another of the same name keeps its scheme
    unless it names one."""
    scheme = key_scheme or getattr(factory, "key_scheme", None) or _key_schemes.get((name, family))
    _factories[(name, family)] = factory
    _key_schemes[(name, family)] = scheme or key_scheme_of(factory)


def clear_adapters() -> None:
    """Forget the adapters built so far (after :func:`register_adapter` replaced a factory: tests
    that give a network an in-process node)."""
    _adapters.clear()


def get_adapter(network_id: str) -> NetworkAdapter:
    """The adapter of a registry network (404 NETWORK_NOT_FOUND for an unknown id)."""
    network = registry().network(network_id)
    cached = _adapters.get(id(network))
    if cached is not None and cached[0] is network:
        return cached[1]
    factory = _factories.get((network.adapter, network.family))
    if factory is None:
        raise LookupError(f"no adapter {network.adapter!r} for {network.family} networks ({network_id})")
    adapter = factory(network)
    _adapters[id(network)] = (network, adapter)
    return adapter


def solana_adapter(network: Network) -> NetworkAdapter:
    from domain.networks.solana import SolanaAdapter

    return SolanaAdapter(network)


def bitcoin_adapter(network: Network) -> NetworkAdapter:
    from domain.networks.bitcoin import BitcoinAdapter

    return BitcoinAdapter(network)


def evm_adapter(network: Network) -> NetworkAdapter:
    from domain.networks.evm import EvmAdapter

    return EvmAdapter(network)


register_adapter("devnet", "account", DevnetAccountAdapter)
register_adapter("devnet", "utxo", DevnetUtxoAdapter)
register_adapter("solana", "account", solana_adapter, key_scheme=ED25519_SCHEME)
register_adapter("bitcoin", "utxo", bitcoin_adapter, key_scheme=TAPROOT_SCHEME)
register_adapter("evm", "account", evm_adapter, key_scheme=ECDSA_SCHEME)


def key_scheme_of_network(network_id: str) -> str:
    """The threshold scheme of the key a registry network's addresses derive from and its
    transfers are signed with (:func:`~domain.networks.base.key_scheme_of` of its adapter class,
    recorded by :func:`register_adapter`): no adapter (nor node connection) is built to answer."""
    network = registry().network(network_id)
    return _key_schemes.get((network.adapter, network.family)) or key_scheme_of(None)


def normalize_address(network_id: str, address: str, *, field: str = "address") -> str:
    """``address`` in its canonical form on the network; 400 INVALID_ADDRESS naming ``field``
    when it is not an address of that network (wrong form, checksum or prefix)."""
    try:
        return get_adapter(network_id).normalize_address(address)
    except InvalidAddress as exc:
        raise ValidationFailed(f"{field}: not an address of {network_id}: {exc}", code="INVALID_ADDRESS",
                               details={"field": field, "reason": str(exc), "network_id": network_id}) from None
