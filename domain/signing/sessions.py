"""Threshold signing sessions: FROST(Ed25519) two-round signing coordinated through the outbox.

What the wallet code calls (inside its unit of work, then after commit)::

    session = await signing.request_signature(workspace_id=ws, vault_id=vault, message=tx_bytes,
                                              purpose="withdrawal:<tx id>")
    ...  # commit the unit of work: the signers' commands are enqueued
    signature = await signing.wait_for_signature(workspace_id=ws, session_id=session.id)
    # or poll: (await signing.get_session(workspace_id=ws, session_id=session.id)).status

The coordinator is a pipeline of actors whose state is the session row in PostgreSQL::

    request_signature         ─▶ signer_N.commit (each service participant; the co-signer via API)
    last commitment stored    ─▶ in its transaction: status round2, signer_N.sign
    last share stored         ─▶ in its transaction: verify each share (a bad one names its
                                 signer), aggregate, verify as plain Ed25519: status completed

(The ``signing.collect_commitments`` and ``signing.aggregate`` actors run the same two steps for
commands queued before they were made inline.)

Each step locks the session row and checks its status, so redelivered or repeated commands
do nothing; a signer restarted mid-session finds its sealed nonce in PostgreSQL and a signer
that already signed refuses to sign again (domain.signing.service_signer.NonceAlreadyUsed).

The workspace's signing policy decides the participants: service shares only ([1, 2], the
default) or co-signer required ([1, 2, 3]: the client's share must take part).
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from typing import Sequence

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from core import clock
from core.outbox import add_command
from domain import audit
from domain.auth import Principal
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.signing import keys, presignatures
from models.keys import KeySet
from models.sessions import (
    SigningCommitment,
    SigningPolicy,
    SigningSession,
    SigningShare,
)
from models.vaults import Vault
from threshold import frost, scheme
from threshold.protocol import Frost
from threshold.scheme import ED25519_SCHEME, SERVICE_PARTICIPANTS
from threshold.suites import suite_of

COLLECT_COMMITMENTS = "signing.collect_commitments"
AGGREGATE = "signing.aggregate"

#: Largest message a session signs (a serialized transaction fits many times over).
MAX_MESSAGE_BYTES = 65536
MAX_PURPOSE_LENGTH = 200

STATUSES = ("round1", "round2", "completed", "failed")


class SigningFailed(Conflict):
    """The session ended without a signature (``details.participant`` names the culprit if known)."""

    code = "SIGNING_FAILED"


class SigningTimeout(TimeoutError):
    """:func:`wait_for_signature` gave up waiting; the session may still complete later."""


# --------------------------------------------------------------------------------------------
# Policy
# --------------------------------------------------------------------------------------------


async def get_policy(*, workspace_id: uuid.UUID) -> SigningPolicy:
    """The workspace's signing policy (an unsaved default row when none was set)."""
    policy = await SigningPolicy.get_or_none(workspace_id=workspace_id)
    return policy or SigningPolicy(workspace_id=workspace_id, cosigner_required=False)


async def read_policy(*, principal: Principal, workspace_id: uuid.UUID) -> SigningPolicy:
    principal.require(workspace_id, Permission.VIEW_WORKSPACE)
    return await get_policy(workspace_id=workspace_id)


async def set_policy(*, principal: Principal, workspace_id: uuid.UUID, cosigner_required: bool) -> SigningPolicy:
    """Require (or stop requiring) the client co-signer's share for every new signature."""
    principal.require(workspace_id, Permission.MANAGE_SIGNING_POLICY)
    policy = await SigningPolicy.filter(workspace_id=workspace_id).select_for_update().first()
    if policy is None:
        policy = await SigningPolicy.create(workspace_id=workspace_id, cosigner_required=cosigner_required,
                                            updated_by=principal.user)
    else:
        policy.cosigner_required = cosigner_required
        policy.updated_by = principal.user
        await policy.save()
    await audit.record(action="signing_policy.updated", object_type="signing_policy", object_id=policy.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"cosigner_required": cosigner_required})
    return policy


def default_participants(key_set: KeySet, policy: SigningPolicy) -> list[int]:
    if policy.cosigner_required:
        return keys.all_participants(key_set)
    return list(scheme.SERVICE_PARTICIPANTS)


def _check_participants(participants: Sequence[int], key_set: KeySet, policy: SigningPolicy) -> list[int]:
    if not isinstance(participants, (list, tuple)) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in participants
    ):
        raise ValidationFailed("participants must be a list of participant identifiers", code="INVALID_PARTICIPANTS",
                               details={"field": "participants"})
    chosen = sorted(set(participants))
    if len(chosen) != len(participants) or not set(chosen) <= set(keys.all_participants(key_set)):
        raise ValidationFailed(
            f"participants must be distinct identifiers among 1..{key_set.max_signers}",
            code="INVALID_PARTICIPANTS", details={"field": "participants"},
        )
    if len(chosen) < key_set.min_signers:
        raise ValidationFailed(
            f"{len(chosen)} participant(s) cannot sign: the key needs {key_set.min_signers}",
            code="INSUFFICIENT_SIGNERS", details={"min_signers": key_set.min_signers, "participants": chosen},
        )
    if policy.cosigner_required and scheme.COSIGNER_PARTICIPANT not in chosen:
        raise ValidationFailed("this workspace requires the co-signer's share for every signature",
                               code="COSIGNER_REQUIRED", details={"participants": chosen})
    return chosen


# --------------------------------------------------------------------------------------------
# Requesting and awaiting a signature
# --------------------------------------------------------------------------------------------


async def request_signature(
    *,
    workspace_id: uuid.UUID,
    vault_id: uuid.UUID,
    message: bytes,
    purpose: str,
    principal: Principal | None = None,
    participants: Sequence[int] | None = None,
    scheme: str = ED25519_SCHEME,
    merkle_root: bytes | None = None,
) -> SigningSession:
    """Start a threshold signature of ``message`` with the vault's key (in the caller's transaction).

    ``principal`` (when a person or API user asks directly) must hold SIGN_TRANSACTION; system
    callers that already authorized the operation pass None. ``participants`` overrides the
    policy's choice (any ``min_signers`` of the key set's participants; it must include the
    co-signer when the policy requires it). A vault of another workspace is 404 VAULT_NOT_FOUND,
    exactly like a missing one.

    ``scheme`` picks the vault's key set (FROST(Ed25519) by default; a network's
    ``SigningPayload.scheme``); ``merkle_root`` is the Taproot tweak of a Taproot scheme's payload
    (``b""``: the key-path-only output a Bitcoin address is) and must be None for other schemes.
    """
    if principal is not None:
        principal.require(workspace_id, Permission.SIGN_TRANSACTION)
    if merkle_root is not None and (not suite_of(scheme).taproot or len(merkle_root) not in (0, 32)):
        raise ValidationFailed("merkle_root is for Taproot schemes only: empty or 32 bytes", code="INVALID_MESSAGE",
                               details={"field": "merkle_root"})
    if not isinstance(message, (bytes, bytearray)) or len(message) > MAX_MESSAGE_BYTES:
        raise ValidationFailed(f"message must be at most {MAX_MESSAGE_BYTES} bytes", code="INVALID_MESSAGE",
                               details={"field": "message"})
    if not isinstance(purpose, str) or not purpose.strip() or len(purpose) > MAX_PURPOSE_LENGTH:
        raise ValidationFailed(f"purpose must be 1 to {MAX_PURPOSE_LENGTH} characters", code="VALIDATION_ERROR",
                               details={"field": "purpose"})
    vault = await Vault.get_or_none(id=vault_id, workspace_id=workspace_id)
    if vault is None:
        raise NotFound("vault not found", code="VAULT_NOT_FOUND")
    if vault.is_frozen:
        raise Conflict("the vault is frozen", code="VAULT_FROZEN")
    key_set = await keys.get_key_set(vault_id=vault.id, workspace_id=workspace_id, scheme=scheme)
    if key_set.status != "ready":
        raise keys.KeySetNotReady("the vault's key is not ready", details={"status": key_set.status,
                                                                            "scheme": scheme})
    policy = await get_policy(workspace_id=workspace_id)
    chosen = _check_participants(
        default_participants(key_set, policy) if participants is None else participants, key_set, policy
    )
    if presignatures.is_ecdsa(key_set):
        presignatures.check_request(bytes(message), chosen)
    session = await SigningSession.create(
        workspace_id=workspace_id, vault_id=vault.id, key_set_id=key_set.id, message=bytes(message),
        merkle_root=None if merkle_root is None else bytes(merkle_root),
        purpose=purpose.strip(), participants=chosen, requested_by=principal.user.id if principal else None,
    )
    if presignatures.is_ecdsa(key_set):
        # Threshold ECDSA: a presignature from the stock, taken in this transaction (or the next
        # one made); the signers are asked to sign once it is committed (domain.signing.presignatures).
        await presignatures.start(session, key_set)
    else:
        for participant in chosen:
            if participant in SERVICE_PARTICIPANTS:
                await add_command(actor_name=keys.signer_actor(participant, "commit"),
                                  payload={"session_id": str(session.id)}, workspace_id=workspace_id)
    await audit.record(action="signing.requested", object_type="signing_session", object_id=session.id,
                       actor_id=principal.user.id if principal else None, workspace_id=workspace_id,
                       details={"vault_id": str(vault.id), "purpose": session.purpose, "participants": chosen,
                                "message_sha256": hashlib.sha256(message).hexdigest(), "scheme": scheme})
    return session


async def get_session(*, workspace_id: uuid.UUID, session_id: uuid.UUID) -> SigningSession:
    session = await SigningSession.get_or_none(id=session_id, workspace_id=workspace_id)
    if session is None:
        raise NotFound("signing session not found", code="SIGNING_SESSION_NOT_FOUND")
    return session


async def wait_for_signature(
    *, workspace_id: uuid.UUID, session_id: uuid.UUID, timeout: float = 30.0, poll_interval: float = 0.05
) -> bytes:
    """Poll until the session completes; return its 64-byte Ed25519 signature.

    Raises :class:`SigningFailed` if the session failed and :class:`SigningTimeout` after
    ``timeout`` seconds of wall time (call it after the requesting transaction committed).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        session = await get_session(workspace_id=workspace_id, session_id=session_id)
        if session.status == "completed":
            return bytes(session.signature)  # type: ignore[arg-type]
        if session.status == "failed":
            raise SigningFailed(f"signing failed: {session.failure_reason}",
                                details={"participant": session.failed_participant,
                                         "reason": session.failure_reason})
        if loop.time() >= deadline:
            raise SigningTimeout(f"signing session {session_id} is still {session.status}")
        await asyncio.sleep(poll_interval)


# --------------------------------------------------------------------------------------------
# Coordinator steps (actors/sessions.py)
# --------------------------------------------------------------------------------------------


async def lock_session(session_id: uuid.UUID | str) -> SigningSession | None:
    return await SigningSession.filter(id=session_id).select_for_update(no_key=True).first()


async def commitment_list(session: SigningSession, key_set: KeySet | None = None) -> list[frost.SigningCommitments]:
    """The session's commitments sorted by participant (the list every signer hashes), as the
    key set's scheme's data class (the key set is read when the caller has not)."""
    if key_set is None:
        key_set = await KeySet.get(id=session.key_set_id)  # type: ignore[attr-defined]
    commitments = keys.suite(key_set).SigningCommitments
    rows = await SigningCommitment.filter(session_id=session.id).order_by("participant")
    return [commitments(r.participant, bytes(r.hiding), bytes(r.binding)) for r in rows]


def session_merkle_root(session: SigningSession) -> bytes | None:
    return None if session.merkle_root is None else bytes(session.merkle_root)


def session_engine(session: SigningSession, key_set: KeySet) -> Frost:
    """The FROST engine a session signs with: its key set's scheme, and for Taproot the output
    key of the session's merkle root (signers, co-signer and coordinator all use this one)."""
    return keys.suite(key_set).engine(session_merkle_root(session))


async def fail_session(session: SigningSession, *, participant: int | None, reason: str) -> None:
    if session.status in ("completed", "failed"):
        return
    session.status = "failed"
    session.failed_participant = participant
    session.failure_reason = reason[:2000]
    await session.save(update_fields=["status", "failed_participant", "failure_reason"])
    await audit.record(action="signing.failed", object_type="signing_session", object_id=session.id,
                       actor_id=None, workspace_id=session.workspace_id,  # type: ignore[attr-defined]
                       details={"participant": participant, "reason": reason[:500]})


async def request_collection_if_complete(session: SigningSession, step: str) -> bool:
    """After a participant stored its commitment (``step`` COLLECT_COMMITMENTS) or share
    (AGGREGATE) with the session row locked: run the coordinator step once all are in.

    Every writer holds the session lock, so the last one to arrive sees every other's row and
    is the one that moves the session on. It does so in its own transaction, not through a
    coordinator command: the step needs nothing secret (commitments, shares, the public key
    package), and a command would cost one more queue hop and six more SQL statements per round.
    The ``signing.*`` actors still run the steps for commands already queued.
    """
    model = SigningCommitment if step == COLLECT_COMMITMENTS else SigningShare
    present = set(await model.filter(session_id=session.id).values_list("participant", flat=True))
    if present != set(session.participants):
        return False
    if step == COLLECT_COMMITMENTS:
        await _start_round2(session)
    else:
        await _aggregate(session)
    return True


async def collect_commitments(*, session_id: uuid.UUID | str) -> bool:
    """Every participant committed: move to round 2 and ask the service signers to sign."""
    session = await lock_session(session_id)
    if session is None or session.status != "round1":
        return False
    present = set(await SigningCommitment.filter(session_id=session.id).values_list("participant", flat=True))
    if present != set(session.participants):
        return False
    await _start_round2(session)
    return True


async def _start_round2(session: SigningSession) -> None:
    """round1 -> round2 (the session row locked, every commitment in)."""
    if session.status != "round1":
        return
    session.status = "round2"
    await session.save(update_fields=["status"])
    for participant in session.participants:
        if participant in scheme.SERVICE_PARTICIPANTS:
            await add_command(actor_name=keys.signer_actor(participant, "sign"),
                              payload={"session_id": str(session.id)},
                              workspace_id=session.workspace_id)  # type: ignore[attr-defined]


async def aggregate(*, session_id: uuid.UUID | str) -> bool:
    """Every share in: verify each (naming a bad one), aggregate, verify as plain Ed25519."""
    session = await lock_session(session_id)
    if session is None or session.status != "round2":
        return False
    return await _aggregate(session)


async def _aggregate(session: SigningSession) -> bool:
    """:func:`aggregate` on the locked session; False while a share is missing."""
    if session.status != "round2":
        return False
    rows = await SigningShare.filter(session_id=session.id).order_by("participant")
    if {r.participant for r in rows} != set(session.participants):
        return False
    key_set = await KeySet.get(id=session.key_set_id)  # type: ignore[attr-defined]
    if presignatures.is_ecdsa(key_set):
        try:
            ecdsa_signature = await presignatures.combine(session, key_set, list(rows))
        except presignatures.CombineFailed as exc:
            await fail_session(session, participant=exc.participant, reason=exc.reason)
            return True
        await complete_session(session, ecdsa_signature)
        return True
    public = keys.public_key_package(key_set)
    message = bytes(session.message)
    suite = keys.suite(key_set)
    try:
        shares = [suite.SignatureShare(r.participant, bytes(r.share)) for r in rows]
        signature = session_engine(session, key_set).aggregate(await commitment_list(session, key_set), message,
                                                               shares, public)
        if key_set.scheme == ED25519_SCHEME:
            VerifyKey(public.group_public_key).verify(message, signature)
        elif not suite.verify(public.group_public_key, message, signature, session_merkle_root(session)):
            # BIP-340 verification by libsecp256k1, for the (tweaked) key the chain checks.
            raise BadSignatureError("the aggregate signature does not verify")
    except frost.InvalidSignatureShare as exc:
        await fail_session(session, participant=exc.participant, reason=str(exc))
        return True
    except (frost.FrostError, BadSignatureError) as exc:
        await fail_session(session, participant=None, reason=f"aggregation failed: {exc}")
        return True
    await complete_session(session, signature)
    return True


async def complete_session(session: SigningSession, signature: bytes) -> None:
    """round2 -> completed with the verified ``signature`` (the session row locked)."""
    session.status = "completed"
    session.signature = signature
    session.completed_at = clock.now()
    await session.save(update_fields=["status", "signature", "completed_at"])
    await audit.record(action="signing.completed", object_type="signing_session", object_id=session.id,
                       actor_id=None, workspace_id=session.workspace_id,  # type: ignore[attr-defined]
                       details={"vault_id": str(session.vault_id), "purpose": session.purpose})  # type: ignore[attr-defined]
