"""The README's quick start, end to end: examples/first_withdrawal.py against the API on a real
socket, with a worker (the signer actors), a co-signer and the scheduler's devnet jobs running."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import sys
import uuid
from contextlib import suppress
from pathlib import Path

from core.unit_of_work import unit_of_work
from domain import deposits
from domain.networks import devnet_chain
from domain.webhooks.sender import close_sessions
from domain.withdrawals import pipeline
from models.webhooks import Webhook
from tests.support.callers import make_api_user
from tests.support.serving import served_api
from tests.support.signing import cosigner_for, designated_signer

ROOT = Path(__file__).resolve().parents[2]
EVM = "devnet-evm-testnet"


async def _scheduler_jobs(stop: asyncio.Event) -> None:
    """What `custody scheduler` runs for the devnet: blocks, the deposit watcher, the withdrawal tracker."""
    while not stop.is_set():
        async with unit_of_work():
            if await devnet_chain.block_due(network_id=EVM):
                await devnet_chain.produce_block(network_id=EVM)
        while True:
            async with unit_of_work():
                if await deposits.scan_next_block(network_id=EVM) is None:
                    break
        for transaction_id in [w.id for w in await pipeline.tracked_withdrawals()]:
            async with unit_of_work():
                await pipeline.track(transaction_id=transaction_id)
        await asyncio.sleep(0.1)


async def _cosigning(cosigner, stop: asyncio.Event) -> None:
    while not stop.is_set():
        with suppress(Exception):  # a step racing the pipeline is retried at the next look, as in the program
            await cosigner.step()
        await asyncio.sleep(0.1)


async def test_the_first_withdrawal_script_sends_out_and_in_and_sees_it_all(client, worker, settings, tmp_path):
    # Given the API served on a real socket, a worker, the scheduler's devnet jobs and a co-signer
    try:
        async with served_api(settings, name=f"custody_quickstart_{uuid.uuid4().hex[:8]}") as port:
            integrator = await make_api_user(role="ADMIN")
            cosigner = cosigner_for(client, await designated_signer(integrator.workspace_id),
                                    tmp_path / "cosigner")
            credentials = tmp_path / "creds.json"
            credentials.write_text(json.dumps({
                "base_url": f"http://127.0.0.1:{port}", "workspace_id": integrator.workspace_id,
                "client_id": integrator.user_id, "client_type": "user",
                "private_key": base64.b64encode(bytes(integrator.signing_key)).decode()}))
            stop = asyncio.Event()
            helpers = [asyncio.create_task(_scheduler_jobs(stop)),
                       asyncio.create_task(_cosigning(cosigner, stop))]
            env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": settings.database_url,
                   "REDIS_URL": settings.redis_url, "REDIS_NAMESPACE": settings.redis_namespace,
                   "CUSTODY_DATA_DIR": str(settings.data_dir)}
            try:
                # When the quick start's script runs
                script = await asyncio.create_subprocess_exec(
                    sys.executable, str(ROOT / "examples" / "first_withdrawal.py"), str(credentials), "--poll",
                    "0.2", "--timeout", "60", env=env, cwd=ROOT, stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE)
                out, err = await asyncio.wait_for(script.communicate(), timeout=180)
            finally:
                stop.set()
                await asyncio.gather(*helpers)
    finally:
        await close_sessions()  # the delivery actor's HTTP client session
    output = out.decode()
    # Then both withdrawals finished, the balances and the change log show them, every event verified
    assert script.returncode == 0, output + err.decode()[-3000:]
    assert "treasury funded: 2 tDETH" in output
    assert "the same request again: 409, same transaction: True" in output
    # (each line lists the statuses the script saw; a withdrawal that finished before its first look
    # shows "finished" alone)
    assert len(re.findall(r"^withdrawal \S+: (?:\S+ -> )*finished; fee", output, re.MULTILINE)) == 2, output
    assert "Quickstart savings: total 0.25, held 0, available 0.25 tDETH" in output
    assert "Quickstart treasury: total 1.249958, held 0" in output
    assert "withdrawal finished" in output and "transaction.finished" in output
    assert "INVALID" not in output and "signature verified" in output
    # And it left no webhook behind (its receiver ended with it)
    assert "deleted" in output.splitlines()[-1]
    assert not await Webhook.filter(workspace_id=integrator.workspace_id, deleted_at__isnull=True).exists()
