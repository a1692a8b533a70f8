"""The network registry (domain/networks/registry.py): an adapter for every network."""

from __future__ import annotations

from domain.currencies import registry
from domain.networks.base import NetworkAdapter
from domain.networks.registry import get_adapter


def test_every_registry_network_has_an_adapter_implementing_the_interface():
    for network_id in registry().networks:
        adapter = get_adapter(network_id)
        assert isinstance(adapter, NetworkAdapter)
        assert adapter.network.id == network_id


def test_the_real_networks_key_schemes_declared_with_their_lazy_factories_are_their_adapters_own():
    # The Solana, Bitcoin and EVM adapters are imported when first built (their libraries are
    # costly to import): the registry declares their key schemes, which must be the classes' own.
    from domain.networks.bitcoin import BitcoinAdapter
    from domain.networks.evm import EvmAdapter
    from domain.networks.registry import key_scheme_of_network
    from domain.networks.solana import SolanaAdapter

    classes = {"solana": SolanaAdapter, "bitcoin": BitcoinAdapter, "evm": EvmAdapter}
    checked = set()
    for network_id, network in registry().networks.items():
        if network.adapter in classes:
            assert key_scheme_of_network(network_id) == classes[network.adapter].key_scheme, network_id
            assert isinstance(get_adapter(network_id), classes[network.adapter]), network_id
            checked.add(network.adapter)
    assert checked == set(classes)
