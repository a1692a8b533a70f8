"""Helpers and fixtures of the EVM tests: a real EVM (py-evm in process, or anvil when installed),
the adapter bound to it, a threshold ECDSA key held by the test, and vaults with EVM wallets.

Fixtures are named in the conftest.py of the folders that use them (tests/domain/networks).

* ``evm_chain``: parametrized ``py-evm`` (always: :class:`~domain.networks.evm_local.LocalEvm`,
  the node of ``evm-local``) and ``anvil`` (when the ``anvil`` binary of npm's
  ``@foundry-rs/anvil`` is on the PATH; skipped with a message otherwise), each with the test
  ERC-20 deployed at :data:`~domain.networks.evm_local.TOKEN_ADDRESS`. anvil is one process per
  test module, rewound to its starting snapshot after every test.
* ``evm_adapter``: the ``evm-local`` adapter on that chain, registered so that the deposit watcher
  and the pipeline use it too.
* :class:`EcdsaKey`: a 2-of-3 threshold ECDSA key made in the test by ``threshold.ecdsa`` (the
  key is never whole, here either); :meth:`EcdsaKey.sign` runs triples, a presignature and the
  signature between participants 1 and 2, as phase 2's signers will.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Iterator

import pytest

from core import clock
from core.settings import Settings, configure, get_settings
from core.unit_of_work import unit_of_work
from domain import vaults, wallets
from domain.currencies import registry
from domain.networks import registry as network_registry
from domain.networks.evm import EvmAdapter, address_of_key
from domain.networks.evm_dev import TOKEN_ADDRESS, deploy_test_token, faucet
from domain.networks.evm_local import InProcessEvmRpc, LocalEvm, deploy_test_token_sync
from domain.networks.evm_rpc import EvmRpc, HttpEvmRpc, to_int
from models.keys import KeySet
from models.vaults import Vault
from models.wallets import Wallet
from models.workspaces import Workspace
from tests.support.callers import make_workspace
from threshold import ecdsa
from threshold.scheme import ECDSA_SCHEME

NETWORK = "evm-local"
ETH = 10**18
USDC = 10**6


def anvil_binary() -> str | None:
    """The anvil of npm's @foundry-rs/anvil (or foundryup's), if installed."""
    return shutil.which("anvil")


@dataclass
class Chain:
    """A real EVM for one test: its JSON-RPC, and the development tools every node here has."""

    kind: str
    rpc: EvmRpc
    node: LocalEvm | None = None

    async def call(self, method: str, *params: Any) -> Any:
        return await self.rpc.request(method, list(params))

    async def mine(self, blocks: int = 1) -> int:
        for _ in range(blocks):
            await self.call("evm_mine")
        return to_int(await self.call("eth_blockNumber"))

    async def height(self) -> int:
        return to_int(await self.call("eth_blockNumber"))

    async def snapshot(self) -> str:
        return str(await self.call("evm_snapshot"))

    async def revert(self, snapshot: str) -> None:
        assert await self.call("evm_revert", snapshot) is True

    async def automine(self, enabled: bool) -> None:
        await self.call("evm_setAutomine", enabled)

    async def fund(self, address: str, *, eth: int = 0, usdc: int = 0) -> list[str]:
        hashes = []
        if eth:
            hashes.append(await faucet(self.rpc, address=address, amount=eth))
        if usdc:
            hashes.append(await faucet(self.rpc, address=address, amount=usdc, token=TOKEN_ADDRESS))
        return hashes

    async def balance(self, address: str) -> int:
        return to_int(await self.call("eth_getBalance", address, "latest"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def anvil_url() -> Iterator[str]:
    """One anvil per test module (chain id 31337, automine), or a skip saying how to get it."""
    binary = anvil_binary()
    if binary is None:
        pytest.skip("anvil is not installed (npm install -g @foundry-rs/anvil): the py-evm runs cover it")
    port = _free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--chain-id", "31337", "--silent"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail("anvil did not start")
            time.sleep(0.1)
    try:
        # A thread of its own: this fixture may be set up while the tests' event loop runs.
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, deploy_test_token(HttpEvmRpc(url))).result(timeout=60)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(params=["py-evm", "anvil"])
async def evm_chain(request: pytest.FixtureRequest) -> AsyncIterator[Chain]:
    if request.param == "py-evm":
        node = LocalEvm()
        deploy_test_token_sync(node)
        yield Chain("py-evm", InProcessEvmRpc(node), node)
        return
    chain = Chain("anvil", HttpEvmRpc(request.getfixturevalue("anvil_url")))
    start = await chain.snapshot()
    await chain.automine(True)
    try:
        yield chain
    finally:
        await chain.revert(start)
        await chain.automine(True)


@pytest.fixture
def evm_adapter(evm_chain: Chain) -> Iterator[EvmAdapter]:
    """The evm-local adapter on ``evm_chain``, also what get_adapter answers for evm-local."""
    network_registry.register_adapter("evm", "account", lambda network: EvmAdapter(network, rpc=evm_chain.rpc))
    network_registry.clear_adapters()
    try:
        yield EvmAdapter(registry().network(NETWORK), rpc=evm_chain.rpc)
    finally:
        network_registry.register_adapter("evm", "account", EvmAdapter)  # type: ignore[arg-type]
        network_registry.clear_adapters()


# --------------------------------------------------------------------------------------------
# A threshold ECDSA key held by the test
# --------------------------------------------------------------------------------------------


@dataclass
class EcdsaKey:
    shares: dict[int, ecdsa.KeyShare]
    signatures: int = field(default=0)

    @classmethod
    def generate(cls) -> EcdsaKey:
        return cls(ecdsa.run_locally([ecdsa.keygen(n) for n in (1, 2, 3)]))

    @property
    def public_key(self) -> bytes:
        return self.shares[1].public_key

    @property
    def address(self) -> str:
        return address_of_key(self.public_key)

    def sign(self, digest: bytes, pair: tuple[int, int] = (1, 2)) -> bytes:
        """Both signers' triples, presignature and signature over ``digest``: ``r || s``."""
        first = ecdsa.run_locally([ecdsa.triple(n, pair) for n in pair])
        second = ecdsa.run_locally([ecdsa.triple(n, pair) for n in pair])
        presigned = ecdsa.run_locally([ecdsa.presign(n, pair, self.shares[n], first[n], second[n]) for n in pair])
        signed = ecdsa.run_locally([ecdsa.sign(n, pair, self.shares[n], presigned[n], digest) for n in pair])
        self.signatures += 1
        return signed[pair[0]].to_bytes()


async def sign_and_submit(adapter: EvmAdapter, key: EcdsaKey, unsigned: Any) -> str:
    """Sign every payload of ``unsigned`` with ``key`` and submit it; the transaction hash."""
    from domain.networks.base import signing_payloads, submit_signed

    payloads = signing_payloads(unsigned)
    assert [p.scheme for p in payloads] == [ECDSA_SCHEME]
    signatures = [key.sign(p.message) for p in payloads]
    async with unit_of_work():
        return await submit_signed(adapter, body=unsigned.body, signatures=signatures)


# --------------------------------------------------------------------------------------------
# Vaults with EVM wallets (the network is enabled for the test; the key set is the test's key)
# --------------------------------------------------------------------------------------------


@contextmanager
def evm_enabled(settings: Settings | None = None) -> Iterator[None]:
    """Within the block, the registry enables evm-local (phase 1 ships it disabled)."""
    before = settings or get_settings()
    configure(before.with_overrides(networks_enabled=(*before.networks_enabled, NETWORK)))
    try:
        yield
    finally:
        configure(before)


@dataclass
class EvmVault:
    workspace: Workspace
    vault: Vault
    key: EcdsaKey
    eth: Wallet
    usdc: Wallet
    address: str


async def evm_vault(key: EcdsaKey | None = None, *, name: str = "Treasury") -> EvmVault:
    """A testnet vault whose ECDSA key set is ``key`` (ready), with lETH and lUSDC_ETH wallets.

    The vault is created as the service creates it; its ECDSA key set row is written here with
    the test key's group key, standing in for the DKG that phase 2 wires. Call inside
    :func:`evm_enabled`."""
    key = key or EcdsaKey.generate()
    ws = await make_workspace(network_type="testnet")
    enabled = get_settings()
    # Created as the service creates it, before the network is on (its key sets by the DKG).
    configure(enabled.with_overrides(networks_enabled=tuple(n for n in enabled.networks_enabled if n != NETWORK)))
    try:
        async with unit_of_work():
            view = await vaults.create_vault(principal=None, workspace_id=ws.id, name=name)
    finally:
        configure(enabled)
    async with unit_of_work():
        # The DKG of the vault's ECDSA key set (evm-local is enabled in the registry) never runs
        # here: failed, it gives its place to the test's key.
        await KeySet.filter(vault_id=view.vault.id, scheme=ECDSA_SCHEME).update(status="failed")
        await KeySet.create(workspace_id=ws.id, vault_id=view.vault.id, scheme=ECDSA_SCHEME,
                            context=uuid.uuid4().bytes, status="ready", group_public_key=key.public_key,
                            verifying_shares={}, ready_at=clock.now())
    async with unit_of_work():
        created = await wallets.create_wallet(principal=None, workspace=ws, vault_id=view.vault.id,
                                              currency_id="USDC_ETH_LOCAL")
    by_currency = {c.wallet.currency_id: c.wallet for c in created}
    eth, usdc = by_currency["ETH_LOCAL"], by_currency["USDC_ETH_LOCAL"]
    await eth.fetch_related("address")
    return EvmVault(ws, view.vault, key, eth, usdc, eth.address.address)  # type: ignore[attr-defined]

