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
