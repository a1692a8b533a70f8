"""The withdrawal actors end to end: the real signer actors (and the co-signer when the workspace
requires it), commands delivered and issued twice, and a worker process killed between submitting
the signed transfer and recording it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from actors import withdrawals as withdrawal_actors
from core import jobs, outbox
from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain import balances, wallets
from domain.withdrawals import pipeline
from domain.withdrawals.create import CHECK
from domain.withdrawals.pipeline import AFTER_SUBMIT
from models.devnet import DevnetTransaction
from models.sessions import SigningSession
from models.transactions import Transaction
from models.wallets import Wallet
from models.webhooks import WebhookEvent
from models.workspaces import Workspace
from tests.support.environment import ROOT, TEST_NAMESPACE
from tests.support.signing import SigningSetup, ready_vault
from tests.support.statements import statements_sent
from tests.support.wallets import address_of, fund, mine_block, reload, vault_with_key, watch, workspace
from tests.support.withdrawals import (
    ELSEWHERE_EVM,
    ETH,
    EVM,
    allow_one_time_addresses,
    funded_wallet,
    sign_with_test_key,
    step,
    to_broadcast,
    until_status,
    withdraw,
)
from tests.support.worker import InProcessWorker

FEE = 21_000 * 10**9


async def _funded(setup: SigningSetup, amount: int = ETH) -> tuple[Workspace, Wallet]:
    ws = await Workspace.get(id=setup.workspace_id)
    async with unit_of_work():
        (view,) = await wallets.create_wallet(principal=None, workspace=ws, vault_id=setup.vault.id,
                                              currency_id="DETH_TEST")
    await fund(EVM, await address_of(view.wallet), amount)
    await watch(EVM)
    await allow_one_time_addresses(ws.id)
    return ws, await reload(view.wallet)


async def test_a_workspace_requiring_the_cosigner_signs_withdrawals_with_it(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    ws, wallet = await _funded(setup)
    _, policy = await client.put("/api/v1/co-signer/policy", headers=setup.owner.headers(),
                                 json={"cosigner_required": True})
    assert policy.status == 200 and policy.json["cosigner_required"] is True
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 10)).transaction
    # The pipeline waits in signing until the co-signer (polling like the real one) takes part
    done = await until_status(tx.id, "finished", "failed", network=EVM, timeout=60, on_wait=setup.cosigner.step)
    assert (done.status, done.error_code) == ("finished", None)
    session = await SigningSession.get(id=done.signing_session_id)
    assert (session.participants, session.purpose) == ([1, 2, 3], f"withdrawal:{tx.id}")
    assert balances.parts_of(await reload(wallet)).total == ETH - ETH // 10 - FEE


async def test_commands_delivered_and_issued_twice_sign_and_broadcast_once(client, worker, broker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    ws, wallet = await _funded(setup)
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    # Every step's command issued twice more, at once, whatever the status is
    async with unit_of_work():
        for step in (CHECK, pipeline.SIGN, pipeline.COLLECT_SIGNATURE, pipeline.BROADCAST) * 2:
            await outbox.add_command(actor_name=step, payload={"transaction_id": str(tx.id)}, workspace_id=ws.id)
    done = await until_status(tx.id, "finished", "failed", network=EVM, timeout=60)
    assert done.status == "finished"
    # And every command's message delivered again (an at-least-once broker) after the end
    for command in await Command.filter(payload__contains={"transaction_id": str(tx.id)}):
        await asyncio.to_thread(broker.get_actor(command.actor_name).send, str(command.id))
    await worker.settle(timeout=20)
    after = await Transaction.get(id=tx.id)
    assert (after.status, after.seq) == ("finished", done.seq)
    assert await SigningSession.filter(workspace_id=ws.id).count() == 1
    assert await DevnetTransaction.filter(kind="transfer").count() == 1
    finished = [e for e in await WebhookEvent.filter(type="transaction.finished") if str(tx.id) in e.payload]
    assert len(finished) == 1
    assert balances.parts_of(await reload(wallet)) == balances.BalanceParts(total=ETH - 1000 - FEE,
                                                                            block_height=after.block_height or 0)


def _worker_process(settings, *crash_points: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DATABASE_URL": settings.database_url,
           "REDIS_URL": settings.redis_url, "CUSTODY_ENV": "test", "CUSTODY_DATA_DIR": str(settings.data_dir),
           "CUSTODY_CRASH_POINTS": ",".join(crash_points), "LOG_LEVEL": "WARNING",
           # Its metrics in the suite's folder: a crash point ends it before it removes a folder of its own
           "dramatiq_prom_db": str(Path(settings.data_dir) / "worker-metrics")}
    return subprocess.Popen([sys.executable, "-m", "custody.isolated_worker", "--namespace", TEST_NAMESPACE],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def _exited(process: subprocess.Popen, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while process.poll() is None:
        assert time.monotonic() < deadline, "the worker process did not reach its crash point"
        await asyncio.sleep(0.05)
    return process.returncode


async def test_a_worker_killed_between_submitting_and_recording_never_signs_or_broadcasts_twice(
        client, broker, settings, tmp_path, frozen_clock):
    # Given a ready vault (real DKG, in-process worker) with a funded wallet, and no worker running
    keygen = InProcessWorker(broker)
    keygen.start()
    try:
        setup = await ready_vault(client, keygen, tmp_path / "cosigner")
        ws, wallet = await _funded(setup)
    finally:
        await asyncio.to_thread(keygen.stop)
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, ETH // 4)).transaction
    # When a worker process runs the pipeline and dies (SIGKILL) right after submitting the transfer
    process = _worker_process(settings, AFTER_SUBMIT)
    try:
        returncode = await _exited(process, timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
    assert returncode == -signal.SIGKILL, process.stderr.read().decode()[-3000:] if process.stderr else ""
    # Then the signature and the transfer's hash were recorded before the submission, and the
    # submission (in the killed transaction) did not survive: nothing was recorded as broadcast
    killed = await Transaction.get(id=tx.id)
    assert killed.status == "awaiting_broadcast" and killed.signature and killed.tx_hash
    assert await SigningSession.filter(workspace_id=ws.id, status="completed").count() == 1
    assert await DevnetTransaction.filter(kind="transfer").count() == 0
    broadcast_command = await Command.get(actor_name=pipeline.BROADCAST,
                                          payload__contains={"transaction_id": str(tx.id)})
    assert broadcast_command.status == "pending"
    # When a new worker starts and the outbox relay finds the stale command
    recovery = InProcessWorker(broker)
    recovery.start()
    try:
        frozen_clock.advance(seconds=120)
        await outbox.relay_stale_commands(broker=broker)
        done = await until_status(tx.id, "finished", "failed", network=EVM, timeout=60)
    finally:
        await asyncio.to_thread(recovery.stop)
    # Then the same signed bytes were broadcast, once; no second signature was made
    assert (done.status, done.tx_hash, done.signing_session_id) == ("finished", killed.tx_hash,
                                                                     killed.signing_session_id)
    assert await SigningSession.filter(workspace_id=ws.id).count() == 1
    assert await DevnetTransaction.filter(kind="transfer").count() == 1
    assert (await DevnetTransaction.get(kind="transfer")).tx_hash == killed.tx_hash
    parts = balances.parts_of(await reload(wallet))
    assert (parts.total, parts.held) == (ETH - ETH // 4 - FEE, 0)


async def test_the_scheduled_actors_finish_expire_and_reissue_stalled_steps(broker, frozen_clock):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", ETH)
    sent = await to_broadcast((await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction, tv.key)
    waiting = (await withdraw(ws, wallet, ELSEWHERE_EVM, 2000)).transaction
    stuck = (await withdraw(ws, wallet, ELSEWHERE_EVM, 3000)).transaction
    # Given one withdrawal whose broadcast command failed for good (its retries spent in an outage)
    await step(pipeline.run_checks, stuck)
    await mine_block(EVM)
    # When the tracker runs: the broadcast one is final
    await withdrawal_actors.track()
    assert (await Transaction.get(id=sent.id)).status == "finished"
    await step(pipeline.start_signing, stuck)
    await sign_with_test_key(stuck, tv.key)
    await step(pipeline.collect_signature, stuck)
    await Command.filter(actor_name=pipeline.BROADCAST).update(status="failed")
    # When a day passes and the expiry actor runs: the one not signing expired, the stalled one is issued again
    frozen_clock.advance(hours=25)
    await withdrawal_actors.expire()
    assert (await Transaction.get(id=waiting.id)).status == "expired"
    reissued = await Command.get(actor_name=pipeline.BROADCAST, status="pending",
                                 payload__contains={"transaction_id": str(stuck.id)})
    assert (await step(pipeline.broadcast, stuck)).status == "broadcast" and reissued
    # A step with a live command is not issued again
    await withdrawal_actors.expire()
    assert await Command.filter(actor_name=pipeline.BROADCAST, status="pending").count() == 1


async def test_the_tracker_asks_the_network_outside_a_transaction_and_locks_only_to_write_a_change(broker):
    # Given a broadcast withdrawal whose transfer waits in the mempool
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", ETH)
    sent = await to_broadcast((await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction, tv.key)
    # When the tracker runs, it lists the broadcast withdrawals and asks for the transfer's status
    # only: no transaction is opened and no row locked while the network answers
    with statements_sent() as polled:
        await withdrawal_actors.track()
    assert len(polled) == 2 and not [s for s in polled if s in ("BEGIN;", "COMMIT;") or "FOR UPDATE" in s]
    assert (await Transaction.get(id=sent.id)).status == "broadcast"
    # When its block comes, the tracker locks the withdrawal and finishes it in one transaction
    await mine_block(EVM)
    with statements_sent() as finished:
        await withdrawal_actors.track()
    assert finished.count("BEGIN;") == 1 and any("FOR UPDATE" in s for s in finished)
    assert (await Transaction.get(id=sent.id)).status == "finished"


async def _two_in_one_lane(tv, ws):
    """Two approved withdrawals of one address: the first signing (its session completed with the
    test key), the second waiting in approved for the lane."""
    wallet = await funded_wallet(tv, "DETH_TEST", 2 * ETH)
    first = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    second = (await withdraw(ws, wallet, ELSEWHERE_EVM, 2000)).transaction
    for tx in (first, second):
        await step(pipeline.run_checks, tx)
    first = await step(pipeline.start_signing, first)
    assert (await step(pipeline.start_signing, second)).status == "approved"
    await sign_with_test_key(first, tv.key)
    return first, second


def _queued(redis_client) -> bytes:
    """Every message body waiting in the test namespace's queues (delayed ones included)."""
    return b"".join(body for key in redis_client.scan_iter(match=f"{TEST_NAMESPACE}:*.msgs")
                    for body in redis_client.hvals(key))


async def test_a_signature_is_carried_to_broadcast_and_the_lane_goes_on_in_the_same_process(broker, redis_client):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    first, second = await _two_in_one_lane(tv, ws)
    # When the first's session wakes its withdrawal
    await withdrawal_actors.signed([str(first.signing_session_id)])
    # Then it was collected and broadcast, and the second's sign step ran here: nonce 1, signing
    assert (await Transaction.get(id=first.id)).status == "broadcast"
    second = await Transaction.get(id=second.id)
    assert second.status == "signing" and (second.transfer or {})["nonce"] == 1
    # Each of those steps ran once, as its command, and none was sent to a queue (kept back)
    carried = [await Command.get(actor_name=pipeline.BROADCAST, payload__contains={"transaction_id": str(first.id)}),
               await Command.get(actor_name=pipeline.SIGN, status="done",
                                 payload__contains={"transaction_id": str(second.id)})]
    queued = _queued(redis_client)
    for command in carried:
        # (kept back before its row was written, so written without the enqueue stamp: never sent)
        assert (command.status, command.attempts, command.enqueue_count) == ("done", 1, 0)
        assert str(command.id).encode() not in queued
    # And the second's signature carries it on the same way
    await sign_with_test_key(second, tv.key)
    await withdrawal_actors.signed([str(second.signing_session_id)])
    assert (await Transaction.get(id=second.id)).status == "broadcast"
    assert await DevnetTransaction.filter(kind="transfer").count() == 2


async def test_a_step_that_fails_where_it_was_carried_is_sent_to_its_queue_and_retried(broker, redis_client,
                                                                                         monkeypatch):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    first, second = await _two_in_one_lane(tv, ws)
    # Given the network cannot be reached when the broadcast is carried on
    broadcast = pipeline.broadcast

    async def unreachable(**kwargs):
        raise ConnectionError("the node is down")

    monkeypatch.setattr(pipeline, "broadcast", unreachable)
    await withdrawal_actors.signed([str(first.signing_session_id)])
    monkeypatch.setattr(pipeline, "broadcast", broadcast)
    # Then the signature is stored, and the broadcast's command records the failure and is queued
    assert (await Transaction.get(id=first.id)).status == "awaiting_broadcast"
    command = await Command.get(actor_name=pipeline.BROADCAST, payload__contains={"transaction_id": str(first.id)})
    assert (command.status, command.attempts, command.enqueue_count) == ("pending", 1, 1)
    assert "the node is down" in command.last_error
    assert str(command.id).encode() in _queued(redis_client)
    assert (await Transaction.get(id=second.id)).status == "approved"
    # When its message is delivered: broadcast once, and the lane goes on from there
    await withdrawal_actors.broadcast(str(command.id))
    assert (await Transaction.get(id=first.id)).status == "broadcast"
    assert (await Command.get(id=command.id)).status == "done"
    assert (await Transaction.get(id=second.id)).status == "signing"
    assert await DevnetTransaction.filter(kind="transfer").count() == 1


async def test_each_step_locks_its_withdrawal_with_its_commands_claim(broker):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", ETH)
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction

    async def run(step_name: str) -> list[str]:
        command = await Command.get(actor_name=step_name, status="pending",
                                    payload__contains={"transaction_id": str(tx.id)})
        with statements_sent() as sent:
            await jobs._declarations[step_name].fn(str(command.id))  # noqa: SLF001 - the actor as its worker runs it
        return sent

    # When the check step runs as its command (its sign step carried on after it), and the
    # broadcast after the signature
    sent = [await run(CHECK)]
    assert (await Transaction.get(id=tx.id)).status == "signing"
    await sign_with_test_key(tx, tv.key)
    await step(pipeline.collect_signature, tx)
    sent.append(await run(pipeline.BROADCAST))
    # Then each went on, each command's claim locked the withdrawal, and no step locked its row
    # with a statement of its own
    assert (await Transaction.get(id=tx.id)).status == "broadcast"
    claims = [[s for s in statements if s.startswith("WITH claimed AS")] for statements in sent]
    assert [len(c) for c in claims] == [2, 1] and all("FOR UPDATE) r ON true" in s for c in claims for s in c)
    for statements in sent:
        assert not [s for s in statements if s.startswith("SELECT") and 'FROM "transactions" WHERE "id"' in s]


async def test_a_withdrawal_approved_with_its_lane_free_is_signed_in_the_same_process(broker, redis_client):
    ws = await workspace()
    await allow_one_time_addresses(ws.id)
    tv = await vault_with_key(ws)
    wallet = await funded_wallet(tv, "DETH_TEST", ETH)
    tx = (await withdraw(ws, wallet, ELSEWHERE_EVM, 1000)).transaction
    command = await Command.get(actor_name=CHECK, payload__contains={"transaction_id": str(tx.id)})
    # When its check step runs as its command and approves it, its lane free
    await jobs._declarations[CHECK].fn(str(command.id))  # noqa: SLF001 - the actor as its worker runs it
    # Then its sign step ran here at once, as its command, and was never sent to a queue (kept back)
    assert (await Transaction.get(id=tx.id)).status == "signing"
    sign = await Command.get(actor_name=pipeline.SIGN, payload__contains={"transaction_id": str(tx.id)})
    assert (sign.status, sign.attempts, sign.enqueue_count) == ("done", 1, 0)
    assert str(sign.id).encode() not in _queued(redis_client)
