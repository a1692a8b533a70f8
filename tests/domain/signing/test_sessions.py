"""Threshold signing sessions: through the queue, any 2 of 3, policy, bad shares.

A signer's own rules (a nonce is used once) are in test_service_signer.py."""

from __future__ import annotations

import asyncio
import hashlib
import uuid

import pytest
from nacl.signing import VerifyKey

from core.unit_of_work import unit_of_work
from domain.auth import authenticate
from domain.errors import NotFound, ValidationFailed
from domain.signing import keys, service_signer, sessions
from domain.signing.signer_keys import signer_key
from models.sessions import SignerNonce, SigningSession, SigningShare
from models.vaults import Vault
from tests.support.approvals import make_owner
from tests.support.signing import ready_vault, request_signature, settle
from threshold.scheme import TAPROOT_SCHEME
from threshold.taproot import output_key, verify_bip340


def _finished(setup, session: SigningSession):
    async def check() -> bool:
        current = await sessions.get_session(workspace_id=setup.workspace_id, session_id=session.id)
        return current.status in ("completed", "failed")
    return check


async def _sign(worker, setup, message: bytes, *, with_cosigner: bool = True, **kwargs) -> bytes:
    session = await request_signature(setup, message, **kwargs)
    await settle(worker, *([setup.cosigner] if with_cosigner else []), until=_finished(setup, session))
    return await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id, timeout=1)


async def test_a_message_signed_through_the_queue_verifies_as_plain_ed25519(client, worker, tmp_path):
    # Given a vault whose key is ready and the default policy (the two service shares sign)
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    group_key = await keys.group_public_key(vault_id=setup.vault.id)
    message = b"\x01withdrawal: 1.5 BTC to bc1q..."
    # When a signature is requested and the signer processes run the rounds (no co-signer needed)
    session = await request_signature(setup, message)
    assert session.participants == [1, 2] and session.status == "round1"
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id)
    # Then the 64-byte signature verifies with an ordinary Ed25519 verifier
    assert len(signature) == 64
    VerifyKey(group_key).verify(message, signature)
    # And no nonce is left in any signer
    assert await SignerNonce.filter(session_id=session.id).count() == 0


async def test_any_two_of_three_sign_and_one_cannot(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    verify_key = VerifyKey(await keys.group_public_key(vault_id=setup.vault.id))
    # Any two participants, and all three, produce valid signatures
    for participants in ([1, 2], [1, 3], [2, 3], [1, 2, 3]):
        message = f"pair {participants}".encode()
        verify_key.verify(message, await _sign(worker, setup, message, participants=participants))
    # A single participant cannot sign; the request is refused before anything is stored
    for lonely in ([1], [3]):
        with pytest.raises(ValidationFailed) as refused:
            await request_signature(setup, b"alone", participants=lonely)
        assert refused.value.code == "INSUFFICIENT_SIGNERS"
    with pytest.raises(ValidationFailed) as invalid:
        await request_signature(setup, b"who", participants=[1, 4])
    assert invalid.value.code == "INVALID_PARTICIPANTS"
    assert await SigningSession.filter(purpose="test", status="round1").count() == 0


async def test_a_taproot_key_set_signs_bip340_for_its_output_key_with_any_two_of_three(client, worker, tmp_path):
    # Given a vault with a Taproot (secp256k1) key set made by the same DKG (co-signer included)
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(TAPROOT_SCHEME,))
    group_key = await keys.group_public_key(vault_id=setup.vault.id, scheme=TAPROOT_SCHEME)
    assert len(group_key) == 33 and setup.key_set.scheme == TAPROOT_SCHEME
    tweaked, _ = output_key(group_key, b"")
    # When any two of the three (the co-signer among them) sign a 32-byte sighash for the key path
    for participants in ([1, 2], [1, 3], [2, 3]):
        message = hashlib.sha256(f"sighash {participants}".encode()).digest()
        signature = await _sign(worker, setup, message, participants=participants, scheme=TAPROOT_SCHEME,
                                merkle_root=b"")
        # Then it is a BIP-340 signature valid for the Taproot output key (what a P2TR spend needs)
        assert len(signature) == 64 and verify_bip340(tweaked, message, signature)
    # And without a merkle root the key set signs for its internal key (plain BIP-340)
    plain = await _sign(worker, setup, b"internal", scheme=TAPROOT_SCHEME)
    assert verify_bip340(group_key[1:], b"internal", plain)
    # And the vault's Ed25519 key set is another one: none exists here
    with pytest.raises(NotFound):
        await request_signature(setup, b"ed25519")
    # And a merkle root is refused for an Ed25519 session
    with pytest.raises(ValidationFailed):
        await request_signature(setup, b"x", merkle_root=b"")


async def test_a_workspace_can_require_the_cosigner_share(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    owner = await authenticate(setup.owner.token)
    # Given the owner requires the api co-signer for every signature
    async with unit_of_work():
        await sessions.set_policy(principal=owner, workspace_id=setup.workspace_id, cosigner_required=True)
    # When a signature is requested, the co-signer is among the participants by default
    session = await request_signature(setup, b"needs the api")
    assert session.participants == [1, 2, 3]
    # And without the co-signer the session waits in round 1
    await worker.drain()
    assert (await SigningSession.get(id=session.id)).status == "round1"
    # Then once the co-signer takes part the signature completes and verifies
    await settle(worker, setup.cosigner, until=_finished(setup, session))
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id, timeout=1)
    VerifyKey(await keys.group_public_key(vault_id=setup.vault.id)).verify(b"needs the api", signature)
    # And the two service shares alone are refused
    with pytest.raises(ValidationFailed) as refused:
        await request_signature(setup, b"service only", participants=[1, 2])
    assert refused.value.code == "COSIGNER_REQUIRED"


async def test_a_signing_request_for_a_vault_of_another_workspace_is_404_like_a_missing_one(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    other = await make_owner()
    answers = []
    for workspace_id, vault_id in ((uuid.UUID(other.workspace_id), setup.vault.id), (setup.workspace_id, uuid.uuid4())):
        with pytest.raises(NotFound) as missing:
            async with unit_of_work():
                await sessions.request_signature(workspace_id=workspace_id, vault_id=vault_id, message=b"x",
                                                purpose="test")
        answers.append((missing.value.status, missing.value.code, missing.value.message))
    assert answers[0] == answers[1] == (404, "VAULT_NOT_FOUND", "vault not found")
    assert await SigningSession.all().count() == 0
    with pytest.raises(NotFound):
        await keys.group_public_key(vault_id=setup.vault.id, workspace_id=uuid.UUID(other.workspace_id))


async def test_a_frozen_vault_or_an_oversized_message_is_refused(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    with pytest.raises(ValidationFailed) as too_big:
        await request_signature(setup, b"x" * (sessions.MAX_MESSAGE_BYTES + 1))
    assert too_big.value.code == "INVALID_MESSAGE"
    await Vault.filter(id=setup.vault.id).update(is_frozen=True)
    with pytest.raises(Exception) as frozen:
        await request_signature(setup, b"frozen")
    assert getattr(frozen.value, "code", None) == "VAULT_FROZEN"


async def test_a_bad_signature_share_is_caught_before_aggregation_and_its_signer_named(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    await worker.drain()
    await asyncio.to_thread(worker.stop)
    session = await request_signature(setup, b"tampered")
    async with unit_of_work():
        for participant in (1, 2):
            await service_signer.commit(participant=participant, share_key=signer_key(participant), session_id=session.id)
        await service_signer.sign(participant=1, share_key=signer_key(1), session_id=session.id)
    # When signer 1's stored share is altered before the last share arrives (the last one's
    # transaction aggregates)
    row = await SigningShare.get(session_id=session.id, participant=1)
    row.share = (int.from_bytes(bytes(row.share), "little") ^ 1).to_bytes(32, "little")
    await row.save()
    async with unit_of_work():
        await service_signer.sign(participant=2, share_key=signer_key(2), session_id=session.id)
    # Then the session fails naming participant 1, and no signature is released
    failed = await SigningSession.get(id=session.id)
    assert failed.status == "failed" and failed.failed_participant == 1 and failed.signature is None
    with pytest.raises(sessions.SigningFailed) as error:
        await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id, timeout=1)
    assert error.value.details["participant"] == 1
