"""Fixtures of the network adapter tests: the EVM ones live in tests/support/evm.py (a real EVM,
py-evm or anvil, and the adapter bound to it) and are named here so that this folder sees them."""

from tests.support.evm import anvil_url, evm_adapter, evm_chain  # noqa: F401 - fixtures

__all__ = ["anvil_url", "evm_adapter", "evm_chain"]
