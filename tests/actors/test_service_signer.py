"""The signer actors on their own queues: redelivery and restarts never double-sign."""

from __future__ import annotations

import asyncio
import importlib

from nacl.signing import VerifyKey

from core.outbox import Command, add_command
from core.unit_of_work import unit_of_work
from domain.signing import keys, sessions
from models.sessions import SignerNonce, SigningCommitment, SigningSession, SigningShare
from tests.support.signing import ready_vault, request_signature, settle
from tests.support.worker import InProcessWorker


def test_each_signer_has_its_own_queue():
    importlib.import_module("actors")  # declares the actors
    from core import jobs

    queues = {name: decl.queue for name, decl in jobs._declarations.items() if name.startswith("signer_")}  # noqa: SLF001
    assert queues and all(queue == name.split(".")[0] for name, queue in queues.items())
    assert set(queues.values()) == {"signer_1", "signer_2"}


async def test_redelivered_and_repeated_round_messages_do_not_double_sign(client, worker, broker, tmp_path):
    # Given a completed signature
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    session = await request_signature(setup, b"exactly once")
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id)
    shares_before = {s.participant: bytes(s.share) for s in await SigningShare.filter(session_id=session.id)}
    commitments_before = {c.participant: bytes(c.hiding) for c in await SigningCommitment.filter(session_id=session.id)}
    # When every signer message of the session is delivered again (at-least-once broker): the
    # round-one commands (the stocks were empty: a live round one) and the round-two wake-ups
    commands = await Command.filter(payload__contains={"session_id": str(session.id)})
    assert {c.actor_name for c in commands} >= {"signer_1.commit", "signer_2.commit"}
    for command in commands:
        await asyncio.to_thread(broker.get_actor(command.actor_name).send, str(command.id))
    for participant in (1, 2):
        await asyncio.to_thread(broker.get_actor(keys.signer_actor(participant, sessions.SIGN_SESSIONS)).send,
                                [str(session.id)])
    # And the coordinator asks each signer again to commit and to sign (new commands)
    async with unit_of_work():
        for participant in (1, 2):
            for step in ("commit", "sign"):
                await add_command(actor_name=keys.signer_actor(participant, step),
                                  payload={"session_id": str(session.id)})
        await add_command(actor_name=sessions.AGGREGATE, payload={"session_id": str(session.id)})
    await worker.drain()
    # Then nothing was signed twice: same shares, same commitments, same signature, no new nonce
    after = await SigningSession.get(id=session.id)
    assert after.status == "completed" and bytes(after.signature) == signature
    assert {s.participant: bytes(s.share) for s in await SigningShare.filter(session_id=session.id)} == shares_before
    assert {c.participant: bytes(c.hiding) for c in await SigningCommitment.filter(session_id=session.id)} == commitments_before
    assert await SignerNonce.filter(session_id=session.id).count() == 0
    assert await Command.filter(status="failed").count() == 0


async def test_a_signer_restarted_mid_session_completes_it_from_postgresql(client, broker, tmp_path):
    # Given the signer processes (one in-process worker) and a ready key
    first = InProcessWorker(broker)
    first.start()
    try:
        setup = await ready_vault(client, first, tmp_path / "cosigner")
        # And a session of signer 1 and the co-signer, where signer 1 has committed (its nonce is sealed in PostgreSQL)
        session = await request_signature(setup, b"survives a restart", participants=[1, 3])

        async def signer_committed() -> bool:
            return await SignerNonce.exists(session_id=session.id, participant=1)
        await settle(first, until=signer_committed)
        await first.drain()
    finally:
        # When the signer process stops mid-session
        await asyncio.to_thread(first.stop)
    # And the co-signer commits meanwhile: the session moves to round 2 (its commitment was the
    # last), and the request for signer 1's share waits in Redis, its nonce sealed in PostgreSQL
    await setup.cosigner.step()
    assert (await SigningSession.get(id=session.id)).status == "round2"
    assert await SignerNonce.exists(session_id=session.id, participant=1)
    # Then a fresh signer process picks the session up and it completes
    second = InProcessWorker(broker)
    second.start()
    try:
        async def finished() -> bool:
            return (await SigningSession.get(id=session.id)).status in ("completed", "failed")
        await settle(second, setup.cosigner, until=finished)
    finally:
        await asyncio.to_thread(second.stop)
    done = await SigningSession.get(id=session.id)
    assert done.status == "completed", done.failure_reason
    VerifyKey(bytes(setup.key_set.group_public_key)).verify(b"survives a restart", bytes(done.signature))
    assert await SigningShare.filter(session_id=session.id).count() == 2
