"""The README's ERC-20 flow on evm-local, end to end: examples/erc20_refuel.py against the API on a
real socket, with custody dev's evm-local node (py-evm behind JSON-RPC on loopback), a worker
(signers, gas station), a co-signer and the scheduler's chain jobs running. The token vault holds
no ETH; its withdrawal finishes because the gas station sent real gas (issue 22, done means)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
import uuid
from contextlib import suppress
from pathlib import Path
from typing import AsyncIterator

import pytest

from core.settings import Settings, configure
from core.unit_of_work import unit_of_work
from domain.networks import registry as network_registry
from domain.networks.evm_local import serve
from domain.networks.evm_rpc import HttpEvmRpc
from domain.webhooks.sender import close_sessions
from domain.withdrawals import pipeline
from models.deposits import ChainWatchState
from tests.support.callers import make_api_user
from tests.support.serving import served_api
from tests.support.signing import cosigner_for, designated_signer
from tests.support.wallets import watch

ROOT = Path(__file__).resolve().parents[2]
NETWORK = "evm-local"


@pytest.fixture
async def evm_local(settings: Settings) -> AsyncIterator[tuple[str, Settings]]:
    """custody dev's evm-local: a fresh py-evm chain behind JSON-RPC on loopback, which the
    service (EVM_LOCAL_URL) and the example's faucet use."""
    ready: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve("127.0.0.1", 0, ready=ready.set_result, block_interval=0))
    url = await asyncio.wait_for(ready, 60)
    local = settings.with_overrides(evm_local_url=url)
    configure(local)
    network_registry.clear_adapters()
    await ChainWatchState.filter(network=NETWORK).delete()
    try:
        yield url, local
    finally:
        configure(settings)
        network_registry.clear_adapters()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def _scheduler_jobs(rpc: HttpEvmRpc, stop: asyncio.Event) -> None:
    """What `custody scheduler` and evm-local's block interval do: blocks, the deposit watcher,
    the withdrawal tracker."""
    while not stop.is_set():
        with suppress(Exception):  # a step racing the pipeline runs again at the next look
            await rpc.request("evm_mine", [])
            await watch(NETWORK)
            for transaction_id in [w.id for w in await pipeline.tracked_withdrawals()]:
                async with unit_of_work():
                    await pipeline.track(transaction_id=transaction_id)
        await asyncio.sleep(0.3)


async def _cosigning(cosigner, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with suppress(Exception):  # as the program does: the next look retries
            await cosigner.step()
        await asyncio.sleep(0.2)


async def test_the_erc20_refuel_script_finishes_a_token_withdrawal_that_needed_gas(
        client, worker, tmp_path, evm_local):
    url, settings = evm_local
    # Given the API served on a real socket, a worker, the chain jobs and a co-signer
    try:
        async with served_api(settings, name=f"custody_refuel_{uuid.uuid4().hex[:8]}") as port:
            integrator = await make_api_user(role="ADMIN")
            cosigner = cosigner_for(client, await designated_signer(integrator.workspace_id), tmp_path / "cosigner")
            credentials = tmp_path / "creds.json"
            credentials.write_text(json.dumps({
                "base_url": f"http://127.0.0.1:{port}", "workspace_id": integrator.workspace_id,
                "client_id": integrator.user_id, "client_type": "user",
                "private_key": base64.b64encode(bytes(integrator.signing_key)).decode()}))
            stop = asyncio.Event()
            helpers = [asyncio.create_task(_scheduler_jobs(HttpEvmRpc(url), stop)),
                       asyncio.create_task(_cosigning(cosigner, stop))]
            env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": settings.database_url,
                   "REDIS_URL": settings.redis_url, "REDIS_NAMESPACE": settings.redis_namespace,
                   "CUSTODY_DATA_DIR": str(settings.data_dir), "EVM_LOCAL_URL": url}
            try:
                # When the example runs
                script = await asyncio.create_subprocess_exec(
                    sys.executable, str(ROOT / "examples" / "erc20_refuel.py"), str(credentials), "--poll", "0.3",
                    "--timeout", "150", env=env, cwd=ROOT, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE)
                out, err = await asyncio.wait_for(script.communicate(), timeout=420)
            finally:
                stop.set()
                await asyncio.gather(*helpers)
    finally:
        await close_sessions()
    output = out.decode()
    # Then the token withdrawal waited for gas, the station refuelled the vault, and it finished
    assert script.returncode == 0, output + err.decode()[-3000:]
    assert "deposit credited: 100 USDC" in output and "autofuel on for the token vault" in output
    assert "-> finished; fee" in output, output
    assert "refuel from the gas station:" in output and " finished 0.02 ETH" in output, output
    assert "Token vault: 90 USDC_ETH_LOCAL" in output, output
