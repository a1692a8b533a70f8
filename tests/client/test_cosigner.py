"""The co-signer program: its encrypted store, and restarts that resume without a second nonce."""

from __future__ import annotations

import asyncio
import logging
import os
import stat
import uuid

import pytest

from client.cosigner import CosignerError, ShareStore
from core.unit_of_work import unit_of_work
from domain.signing import sessions
from models.keys import KeySet
from models.sessions import SigningCommitment, SigningSession
from tests.support.approvals import make_owner
from tests.support.signing import FAST_KDF, PASSPHRASE, cosigner_for, create_vault, designated_signer, settle, status_is
from tests.support.worker import InProcessWorker
from threshold.suites import suite_of


def test_the_store_is_encrypted_under_the_passphrase(tmp_path):
    store = ShareStore(tmp_path / "store", PASSPHRASE, params=FAST_KDF)
    name = "00000000-0000-0000-0000-000000000001"
    store.save("share", name, {"signing_share": "ab" * 32})
    path = tmp_path / "store" / "share" / f"{name}.bin"
    assert b"signing_share" not in path.read_bytes() and b"abab" not in path.read_bytes()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # Reopened with the passphrase: readable; with another passphrase: refused at once
    assert ShareStore(tmp_path / "store", PASSPHRASE).load("share", name) == {"signing_share": "ab" * 32}
    with pytest.raises(CosignerError, match="wrong passphrase"):
        ShareStore(tmp_path / "store", b"not the passphrase")
    with pytest.raises(ValueError):
        store.save("share", "../escape", {})


async def test_a_cosigner_restarted_mid_protocol_resumes_from_its_store(client, broker, worker, tmp_path):
    owner = await make_owner()
    user = await designated_signer(owner.workspace_id)
    vault = await create_vault(owner.workspace_id)
    # Given the co-signer sent round 1 and then stopped (it takes no further step, so the key
    # generation waits in round 2 for it)
    first = cosigner_for(client, user, tmp_path / "store")
    await first.step()
    await settle(worker, until=status_is(vault, "round2"))
    # When a new co-signer process starts on the same store
    restarted = cosigner_for(client, user, tmp_path / "store")
    await settle(worker, restarted, until=status_is(vault, "ready", "failed"))
    # Then the key generation completes
    key_set = await KeySet.get(vault_id=vault.id)
    assert key_set.status == "ready"
    # And in a signing session (signer processes paused), a co-signer that crashed after storing
    # its nonce, when retried from its store, re-sends the same commitment: no second nonce
    await asyncio.to_thread(worker.stop)
    async with unit_of_work():
        session = await sessions.request_signature(workspace_id=uuid.UUID(owner.workspace_id), vault_id=vault.id,
                                                  message=b"m", purpose="test", participants=[2, 3])
    await restarted.step()
    commitment = await SigningCommitment.get(session_id=session.id, participant=3)
    nonce_files = sorted((tmp_path / "store" / "nonce").glob("*.bin"))
    assert len(nonce_files) == 1
    again = cosigner_for(client, user, tmp_path / "store")
    view = await again.call("GET", f"/api/v1/co-signer/signing-requests/{session.id}")
    share_record = again.store.load("share", str(key_set.id))
    assert share_record is not None
    await again._commit(view, suite_of(share_record["scheme"]),  # noqa: SLF001 - the retried step
                        again.key_package(str(key_set.id)), b"m")
    assert sorted((tmp_path / "store" / "nonce").glob("*.bin")) == nonce_files
    assert bytes((await SigningCommitment.get(session_id=session.id, participant=3)).hiding) == bytes(commitment.hiding)
    # Then with the signers back, the session completes and the co-signer's nonce is gone
    resumed = InProcessWorker(broker)
    resumed.start()
    try:
        async def done() -> bool:
            return (await SigningSession.get(id=session.id)).status == "completed"
        await settle(resumed, again, until=done)
    finally:
        await asyncio.to_thread(resumed.stop)
    assert not list((tmp_path / "store" / "nonce").glob("*.bin"))


async def test_the_cosigner_says_once_that_it_is_signed_in_and_waiting(client, tmp_path, caplog):
    owner = await make_owner()
    signer = await designated_signer(owner.workspace_id)
    cosigner = cosigner_for(client, signer, tmp_path / "store")
    stop = asyncio.Event()
    polls = 0
    original_step = cosigner.step

    async def counted_step():
        nonlocal polls
        polls += 1
        if polls == 4:
            stop.set()
        return await original_step()

    cosigner.step = counted_step  # type: ignore[method-assign]
    with caplog.at_level(logging.INFO, logger="client.cosigner"):
        await cosigner.run(interval=0.01, stop=stop)
    waiting = [r.getMessage() for r in caplog.records if "waiting for key generations" in r.getMessage()]
    assert polls == 4 and len(waiting) == 1
    assert waiting[0].startswith(f"co-signer: signed in as {signer.user_id} in workspace {owner.workspace_id}")
