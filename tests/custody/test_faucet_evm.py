"""``custody faucet --network evm-local`` and ``custody evm-local``: the faucet credits custody dev's
local EVM (found by EVM_LOCAL_URL or the URL custody dev leaves in its data folder) from the
development account, and refuses a real network or a chain it cannot find. Given / When / Then."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import AsyncIterator

import pytest

from core.settings import Settings, configure
from custody.faucet import EVM_LOCAL_URL_FILE, faucet_command
from domain.errors import DomainError
from domain.networks.evm_dev import TOKEN_ADDRESS
from domain.networks.evm_local import serve
from domain.networks.evm_rpc import HttpEvmRpc, to_int
from domain.networks.registry import get_adapter

ADDRESS = "0x" + "42" * 20
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def evm_local_url() -> AsyncIterator[str]:
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, ready=ready.set_result, block_interval=0))
    try:
        yield await asyncio.wait_for(ready, 60)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_the_faucet_credits_eth_and_the_test_token_on_custody_devs_chain(
        settings: Settings, evm_local_url: str, tmp_path: Path) -> None:
    # Given custody dev's local EVM, known only by the URL it left in its data folder
    (tmp_path / EVM_LOCAL_URL_FILE).write_text(evm_local_url + "\n")
    configure(settings.with_overrides(evm_local_url=None, data_dir=tmp_path))
    try:
        # When the faucet credits 2.5 ETH and 100 USDC_ETH_LOCAL to an address
        eth = await faucet_command(network="evm-local", address=ADDRESS, amount="2.5")
        usdc = await faucet_command(network="evm-local", address=ADDRESS, amount="100", currency="USDC_ETH_LOCAL")
    finally:
        configure(settings)
    # Then both were mined on that chain, in atomic units
    assert (eth["currency_id"], eth["amount_atomic"]) == ("ETH_LOCAL", str(25 * 10**17))
    assert (usdc["currency_id"], usdc["amount_atomic"]) == ("USDC_ETH_LOCAL", str(100 * 10**6))
    rpc = HttpEvmRpc(evm_local_url)
    assert to_int(await rpc.request("eth_getBalance", [ADDRESS, "latest"])) == 25 * 10**17
    receipt = await rpc.request("eth_getTransactionReceipt", [usdc["tx_hash"]])
    assert receipt["logs"][0]["address"].lower() == TOKEN_ADDRESS.lower()
    assert to_int(receipt["blockNumber"]) <= usdc["mined_block_height"]


async def test_the_faucet_refuses_a_real_network_and_a_chain_it_cannot_find(settings: Settings,
                                                                            tmp_path: Path) -> None:
    with pytest.raises(DomainError) as refused:
        await faucet_command(network="ethereum-sepolia", address=ADDRESS, amount="1")
    assert refused.value.code == "FAUCET_NOT_AVAILABLE"
    configure(settings.with_overrides(evm_local_url=None, data_dir=tmp_path))
    try:
        with pytest.raises(DomainError) as missing:
            await faucet_command(network="evm-local", address=ADDRESS, amount="1")
    finally:
        configure(settings)
    assert missing.value.code == "FAUCET_NOT_AVAILABLE" and "custody dev" in missing.value.message


def test_custody_evm_local_serves_json_rpc(tmp_path: Path) -> None:
    # When `custody evm-local` starts on a port
    process = subprocess.Popen([sys.executable, "-m", "custody.cli", "evm-local", "--port", "0",
                                "--block-interval", "0.2"], cwd=ROOT, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "LOG_LEVEL": "INFO", "LOG_FORMAT": "text"})
    try:
        assert process.stderr is not None
        # (its log, on stderr: the line is an INFO record, which custody dev keeps out of the terminal)
        line = next(line for line in process.stderr if "custody evm-local:" in line)
        threading.Thread(target=process.stderr.read, daemon=True).start()  # drained: the pipe never fills
        # Then it names its URL and the token, and answers as chain 31337, mining on its own
        assert "custody evm-local: py-evm chain 31337 at http://127.0.0.1:" in line and TOKEN_ADDRESS in line
        url = line.split(" at ")[1].split(" ")[0]

        async def heights() -> tuple[int, int]:
            rpc = HttpEvmRpc(url)
            first = to_int(await rpc.request("eth_blockNumber"))
            await asyncio.sleep(0.6)
            return first, to_int(await rpc.request("eth_blockNumber"))

        first, later = asyncio.run(heights())
        assert later > first
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_the_evm_adapter_is_what_the_registry_serves_for_evm_local() -> None:
    assert type(get_adapter("evm-local")).__name__ == "EvmAdapter"
