"""A service signer's rounds (domain/signing/service_signer.py): its nonce is used once."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from nacl.signing import VerifyKey

from core.unit_of_work import unit_of_work
from domain.signing import service_signer, sessions
from domain.signing.signer_keys import signer_key
from models.sessions import SignerNonce, SigningSession, SigningShare
from tests.support.signing import ready_vault, request_signature


async def test_a_nonce_is_used_once_and_a_second_request_for_it_is_refused(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    await worker.drain()
    await asyncio.to_thread(worker.stop)  # from here on this test plays the signer processes by hand
    session = await request_signature(setup, b"once")
    async with unit_of_work():
        for participant in (1, 2):
            await service_signer.commit(participant=participant, share_key=signer_key(participant), session_id=session.id)
    # (the last commitment stored moved the session to round 2 in its own transaction)
    assert (await SigningSession.get(id=session.id)).status == "round2"
    assert not await sessions.collect_commitments(session_id=session.id)  # a queued coordinator step: nothing left
    # Given signer 1 signed: its nonce was deleted in the transaction that stored the share
    async with unit_of_work():
        first = await service_signer.sign(participant=1, share_key=signer_key(1), session_id=session.id)
    assert first is not None
    assert not await SignerNonce.exists(session_id=session.id, participant=1)
    assert await SignerNonce.exists(session_id=session.id, participant=2)
    # When signer 1 is asked again for the same session (the same nonce)
    with pytest.raises(service_signer.NonceAlreadyUsed) as refused:
        async with unit_of_work():
            await service_signer.sign(participant=1, share_key=signer_key(1), session_id=session.id)
    # Then it refuses and nothing changed
    assert refused.value.code == "NONCE_ALREADY_USED" and refused.value.status == 409
    assert await SigningShare.filter(session_id=session.id, participant=1).count() == 1
    # And the session still completes with the other signer (state lives in PostgreSQL only)
    async with unit_of_work():
        await service_signer.sign(participant=2, share_key=signer_key(2), session_id=session.id)
    # (the last share stored aggregated in its own transaction)
    assert not await sessions.aggregate(session_id=session.id)
    completed = await SigningSession.get(id=session.id)
    assert completed.status == "completed"
    VerifyKey(bytes(setup.key_set.group_public_key)).verify(b"once", bytes(completed.signature))


async def test_a_signer_reads_and_unseals_its_share_of_a_key_once_per_process(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    await worker.drain()
    await asyncio.to_thread(worker.stop)  # this test plays the signer processes by hand
    # Given signer 1 signed once with the vault's key
    first = await request_signature(setup, b"first")
    async with unit_of_work():
        await service_signer.commit(participant=1, share_key=signer_key(1), session_id=first.id)
    # When it takes part in the next signature with the same key, its statements counted
    second = await request_signature(setup, b"second")
    statements: list[str] = []
    originals = {name: getattr(asyncpg.Connection, name) for name in ("fetch", "execute", "fetchrow", "fetchval")}

    def counting(name: str) -> Any:
        def run(self: asyncpg.Connection, query: str, *args: Any, **kwargs: Any) -> Any:
            statements.append(str(query))
            return originals[name](self, query, *args, **kwargs)
        return run

    for name in originals:
        setattr(asyncpg.Connection, name, counting(name))
    try:
        async with unit_of_work():
            commitments = await service_signer.commit(participant=1, share_key=signer_key(1), session_id=second.id)
    finally:
        for name, original in originals.items():
            setattr(asyncpg.Connection, name, original)
    # Then it committed without reading its key share again
    assert commitments is not None
    assert statements and not [s for s in statements if "signer_key_shares" in s]
    # And with another sealing key the cached package is not found (it reads, and cannot unseal)
    with pytest.raises(Exception):  # noqa: B017,PT011 - the unsealing error, whatever its class
        await service_signer.load_key_package(participant=1, share_key=bytes(32), key_set_id=setup.key_set.id,
                                              cached=True)
