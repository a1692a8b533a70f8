"""A real bitcoind or litecoind regtest node in a temporary data directory (optional integration
runs: bench/regtest_node.py and tests/actors/test_chains_node.py skip without one)."""

from __future__ import annotations

import asyncio
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from domain.networks.bitcoin_node import RpcBitcoinNode

#: The regtest parameters of each node: its bech32 prefix and base58 version bytes (hex), as the
#: Bitcoin adapter reads them from a registry network's ``params``.
CHAINS = {
    "bitcoind": {"hrp": "bcrt", "p2pkh": "6f", "p2sh": "c4"},
    "litecoind": {"hrp": "rltc", "p2pkh": "6f", "p2sh": "3a"},
}


def installed(preferred: str | None = None) -> tuple[str, str] | None:
    """``(name, path)`` of the first node binary on the PATH (``preferred`` only, when given)."""
    for name in [preferred] if preferred else sorted(CHAINS):
        path = shutil.which(name)
        if path:
            return name, path
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class RegtestNode:
    name: str
    process: subprocess.Popen
    url: str

    @property
    def rpc(self) -> RpcBitcoinNode:
        return RpcBitcoinNode(self.url)

    async def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited with code {self.process.returncode}")
            try:
                await self.rpc.call("getblockchaininfo")
                return
            except Exception:  # noqa: BLE001 - warming up: connection refused or RPC -28
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def start(name: str, path: str, datadir: Path) -> RegtestNode:
    """Start the node (regtest, RPC on a free loopback port, no P2P); call ``wait_ready`` next."""
    datadir.mkdir(parents=True, exist_ok=True)
    port, password = free_port(), "custody-integration"
    process = subprocess.Popen(
        [path, "-regtest", f"-datadir={datadir}", "-server=1", "-listen=0", f"-rpcport={port}",
         "-rpcuser=custody", f"-rpcpassword={password}", "-fallbackfee=0.0001", "-printtoconsole=0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return RegtestNode(name, process, f"http://custody:{password}@127.0.0.1:{port}")
