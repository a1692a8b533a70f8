"""Threshold signing sessions: FROST two-round signing, round one mostly made ahead of time.

What the wallet code calls (inside its unit of work, then after commit)::

    session = await signing.request_signature(workspace_id=ws, vault_id=vault, message=tx_bytes,
                                              purpose="withdrawal:<tx id>")
    ...  # commit the unit of work: the signers' commands are enqueued
    signature = await signing.wait_for_signature(workspace_id=ws, session_id=session.id)
    # or poll: (await signing.get_session(workspace_id=ws, session_id=session.id)).status

The coordinator is a pipeline of actors whose state is the session row in PostgreSQL::

    request_signature         ─▶ takes one stocked commitment per service signer (nonces.py);
                                 service participants only: status round2 at once and, after
                                 commit, one wake-up per signer for all the unit's sessions
                                 (signer_N.sign_sessions, no outbox row: the sweep covers it)
                                 stock empty: signer_N.commit (the live round one, outbox)
    last commitment stored    ─▶ in its transaction: status round2, wake signer_N.sign_sessions
    signer_N.sign_sessions    ─▶ per batch of sessions: spend the stocked nonces, store the
                                 shares; whoever stores the last share of a session (under the
                                 session lock) verifies each share (a bad one names its
                                 signer), aggregates, verifies as plain Ed25519 / BIP-340:
                                 status completed
    signing.sweep (5 s)       ─▶ wakes the signers again for round-2 sessions still missing
                                 their share after LOST_WAKEUP_SECONDS; nudges refills

(The ``signing.collect_commitments`` and ``signing.aggregate`` actors and ``signer_N.sign`` run
the same steps for commands queued before they were made inline or batched.)

Each step checks the session's status (the steps that change it lock the row), so redelivered
or repeated commands and wake-ups do nothing; a signer restarted mid-session finds its sealed
nonce in PostgreSQL (the stock, or ``signer_nonces`` for the live round one) and a signer that
already signed refuses to sign again (domain.signing.service_signer.NonceAlreadyUsed,
domain.signing.stock.StockItemUsed). A failed session discards the stocked nonces it took.

The workspace's signing policy decides the participants: service shares only ([1, 2], the
default) or co-signer required ([1, 2, 3]: the client's share must take part).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Sequence

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey
from tortoise import connections

from core import clock
from core.outbox import add_command
from core.rows import build, by_key, column_names, write_rows
from core.unit_of_work import nudge_after_commit, wake_after_commit
from domain import audit
from domain.auth import Principal
from domain.errors import Conflict, NotFound, ValidationFailed
from domain.permissions import Permission
from domain.signing import keys, nonces, presignatures, stock
from models.keys import KeySet
from models.sessions import (
    SigningCommitment,
    SigningPolicy,
    SigningSession,
    SigningShare,
)
from threshold import frost, scheme
from threshold.protocol import Frost
from threshold.scheme import ECDSA_SCHEME, ED25519_SCHEME, SERVICE_PARTICIPANTS
from threshold.suites import suite_of

COLLECT_COMMITMENTS = "signing.collect_commitments"
AGGREGATE = "signing.aggregate"
SWEEP = "signing.sweep"
SWEEP_INTERVAL_SECONDS = 5
#: A round-2 session still missing a service signer's share this long after it entered round 2
#: is woken again by the sweep (its wake-up message was lost, or the signer was down).
LOST_WAKEUP_SECONDS = 3
#: The signer steps this module wakes (their actors are in actors/service_signer.py).
SIGN_SESSIONS = "sign_sessions"
REFILL_NONCES = "refill_nonces"

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
    if presignatures.is_ecdsa(key_set):  # threshold ECDSA signs with exactly one pair
        return presignatures.default_participants(policy.cosigner_required)
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
    notify: str | None = None,
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

    ``notify``: an actor woken with ``[[session id, purpose], ...]`` (best effort, after the
    commit that ends the session, completed or failed): the requester's cue to collect, so it
    need not poll.
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
    frozen, key_set, policy = await _request_context(vault_id=vault_id, workspace_id=workspace_id, scheme=scheme)
    if frozen:
        raise Conflict("the vault is frozen", code="VAULT_FROZEN")
    if key_set is None:
        raise NotFound("no key set for this vault", code="KEY_SET_NOT_FOUND")
    if key_set.status != "ready":
        raise keys.KeySetNotReady("the vault's key is not ready", details={"status": key_set.status,
                                                                            "scheme": scheme})
    chosen = _check_participants(
        default_participants(key_set, policy) if participants is None else participants, key_set, policy
    )
    session_id = uuid.uuid4()
    service = [p for p in chosen if p in SERVICE_PARTICIPANTS]
    stocked: list[stock.Item] | None = None
    if presignatures.is_ecdsa(key_set):
        # Threshold ECDSA has no round one: a presignature from the stock (below).
        presignatures.check_request(bytes(message), chosen)
    else:
        stocked = await _take_commitments(session_id, scheme, service)
    session = build(  # SigningSession(...), made faster (core.rows): a signature's hot path
        SigningSession, id=session_id, workspace_id=workspace_id, vault_id=vault_id, key_set_id=key_set.id,
        message=bytes(message), merkle_root=None if merkle_root is None else bytes(merkle_root),
        purpose=purpose.strip(), participants=chosen, requested_by=principal.user.id if principal else None,
        status="round2" if stocked and service == chosen else "round1", notify=notify,
    )
    entry = audit.new_entry(action="signing.requested", object_type="signing_session", object_id=session.id,
                            actor_id=principal.user.id if principal else None, workspace_id=workspace_id,
                            details={"vault_id": str(vault_id), "purpose": session.purpose, "participants": chosen,
                                     "message_sha256": hashlib.sha256(message).hexdigest(), "scheme": scheme})
    commitments = [build(SigningCommitment, session_id=session.id, participant=int(item.holder),
                         hiding=hiding, binding=binding)
                   for item in stocked or [] for hiding, binding in [nonces.commitment_parts(item.public or b"")]]
    # The session, its stocked commitments and its audit entry: one statement (core.rows).
    await write_rows([entry, *commitments, session])
    if presignatures.is_ecdsa(key_set):
        # Threshold ECDSA: a presignature from the stock, taken in this transaction (or the next
        # one made); the signers are asked to sign once it is committed (domain.signing.presignatures).
        await presignatures.start(session, key_set)
    elif stocked:
        if session.status == "round2":
            wake_signers(session)
    else:
        for participant in service:
            await add_command(actor_name=keys.signer_actor(participant, "commit"),
                              payload={"session_id": str(session.id)}, workspace_id=workspace_id)
            nudge_after_commit(keys.signer_actor(participant, REFILL_NONCES), scheme)
    return session


#: A signing request's context in one statement: the vault (scoped to its workspace), its key set
#: of the scheme (the live one wins over failed ones, as keys.get_key_set) and the workspace's
#: signing policy (NULL: the defaults).
_REQUEST_CONTEXT = """
SELECT v.is_frozen AS frozen, p.cosigner_required, k.id AS key_set_id, k.status AS key_set_status
FROM vaults v
LEFT JOIN signing_policies p ON p.workspace_id = v.workspace_id
LEFT JOIN LATERAL (
    SELECT id, status FROM key_sets k WHERE k.vault_id = v.id AND k.workspace_id = v.workspace_id AND k.scheme = $3
    ORDER BY k.status = 'failed', k.created_at DESC LIMIT 1
) k ON true
WHERE v.id = $1 AND v.workspace_id = $2
"""


async def _request_context(*, vault_id: uuid.UUID, workspace_id: uuid.UUID, scheme: str
                           ) -> tuple[bool, KeySet | None, SigningPolicy]:
    """(vault frozen, its key set of ``scheme`` or None, the workspace's signing policy) in one
    query; 404 VAULT_NOT_FOUND (a vault of another workspace alike).

    The query reads the key set's id and status only: a ready key set's public data (its scheme,
    threshold, keys) never changes, so it comes from :func:`ready_key_sets` (read once per
    process); a key set in any other status is read whole (a request that fails)."""
    rows = await connections.get("default").execute_query_dict(_REQUEST_CONTEXT, [vault_id, workspace_id, scheme])
    if not rows:
        raise NotFound("vault not found", code="VAULT_NOT_FOUND")
    row = rows[0]
    key_set: KeySet | None = None
    if row["key_set_id"] is not None:
        if row["key_set_status"] == "ready":
            key_set = (await ready_key_sets([row["key_set_id"]]))[row["key_set_id"]]
        else:
            key_set = await KeySet.get(id=row["key_set_id"])
    policy = build(SigningPolicy, workspace_id=workspace_id, cosigner_required=bool(row["cosigner_required"]))
    return bool(row["frozen"]), key_set, policy


#: One INSERT of several ``signing_shares`` rows, of any sessions (a signer's batch): the time at
#: ``$2``, the sessions, participants and shares as arrays at ``$3`` to ``$5``.
_INSERT_SHARES_SQL = (
    "INSERT INTO signing_shares (id, created_at, updated_at, session_id, participant, share) "
    "SELECT gen_random_uuid(), $2, $2, s, p, z FROM unnest($3::uuid[], $4::smallint[], $5::bytea[]) AS t(s, p, z)")


def _share_values(rows: Sequence[tuple]) -> list[Any]:
    """:data:`_INSERT_SHARES_SQL`'s parameters for rows ``(session id, participant, share)``."""
    return [clock.now(), [r[0] for r in rows], [r[1] for r in rows], [bytes(r[2]) for r in rows]]


async def _take_commitments(session_id: uuid.UUID, scheme: str, service: list[int]) -> list[stock.Item] | None:
    """One stocked nonce commitment per service participant for the session, or None (nothing
    taken) when a signer's stock is empty."""
    if not service:
        return None
    try:
        return await stock.take(kind=nonces.kind(scheme), holders=[stock.holder_of(p) for p in service],
                                session_id=session_id)
    except stock.StockEmpty:
        return None


def wake_signers(session: SigningSession) -> None:
    """After commit, ask the service participants of a round-2 session for their shares (one
    message per signer for all the sessions of the unit of work)."""
    for participant in session.participants:
        if participant in SERVICE_PARTICIPANTS:
            wake_after_commit(keys.signer_actor(participant, SIGN_SESSIONS), str(session.id))


async def get_session(*, workspace_id: uuid.UUID, session_id: uuid.UUID) -> SigningSession:
    session = await by_key(SigningSession, session_id, workspace_id=workspace_id)
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
            return bytes(session.signature)  # type: ignore[arg-type]  # set once signed
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
    return await by_key(SigningSession, session_id, lock="no key update")


async def commitment_list(session: SigningSession, key_set: KeySet | None = None) -> list[frost.SigningCommitments]:
    """The session's commitments sorted by participant (the list every signer hashes), as the
    key set's scheme's data class (the key set is read when the caller has not)."""
    if key_set is None:
        key_set = await KeySet.get(id=session.key_set_id)
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
    # The stocked nonces it took and did not spend must never sign anything else.
    await stock.discard(session_id=session.id)
    _notify(session)
    await audit.record(action="signing.failed", object_type="signing_session", object_id=session.id,
                       actor_id=None, workspace_id=session.workspace_id,
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
    await session.save(update_fields=["status", "updated_at"])
    wake_signers(session)


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
    key_set = (await ready_key_sets([session.key_set_id]))[session.key_set_id]
    if presignatures.is_ecdsa(key_set):
        try:
            ecdsa_signature = await presignatures.combine(session, key_set, list(rows))
        except presignatures.CombineFailed as exc:
            await fail_session(session, participant=exc.participant, reason=exc.reason)
            return True
        await complete_session(session, ecdsa_signature)
        return True
    outcome = _combine(session, key_set, await commitment_list(session, key_set),
                       [(r.participant, bytes(r.share)) for r in rows])
    if isinstance(outcome, _Failure):
        await fail_session(session, participant=outcome.participant, reason=outcome.reason)
        return True
    await complete_session(session, outcome)
    return True


@dataclass(frozen=True)
class _Failure:
    participant: int | None
    reason: str


def _combine(session: SigningSession, key_set: KeySet, commitments: list[frost.SigningCommitments],
             shares: list[tuple[int, bytes]]) -> bytes | _Failure:
    """Verify each share (naming a bad one), aggregate, verify the signature as the chain will."""
    public = keys.public_key_package(key_set)
    message = bytes(session.message)
    suite = keys.suite(key_set)
    try:
        signature_shares = [suite.SignatureShare(participant, share) for participant, share in sorted(shares)]
        signature = session_engine(session, key_set).aggregate(commitments, message, signature_shares, public)
        if key_set.scheme == ED25519_SCHEME:
            VerifyKey(public.group_public_key).verify(message, signature)
        elif not suite.verify(public.group_public_key, message, signature, session_merkle_root(session)):
            # BIP-340 verification by libsecp256k1, for the (tweaked) key the chain checks.
            raise BadSignatureError("the aggregate signature does not verify")
    except frost.InvalidSignatureShare as exc:
        return _Failure(exc.participant, str(exc))
    except (frost.FrostError, BadSignatureError) as exc:
        return _Failure(None, f"aggregation failed: {exc}")
    return signature


def _mark_completed(session: SigningSession, signature: bytes) -> None:
    session.status = "completed"
    session.signature = signature
    session.completed_at = clock.now()
    session.updated_at = session.completed_at
    _notify(session)


def _notify(session: SigningSession) -> None:
    """Wake the session's requester once the unit of work that ended it commits: the session's
    id and its purpose (what the requester finds its own work by, without reading the session)."""
    if session.notify:
        wake_after_commit(session.notify, [str(session.id), session.purpose])


async def _store_completed(completed: Sequence[SigningSession]) -> None:
    """Store sessions :func:`_mark_completed` ended, with their audit entries: one statement
    (core.rows), in the caller's transaction."""
    entries = [audit.new_entry(action="signing.completed", object_type="signing_session", object_id=session.id,
                               actor_id=None, workspace_id=session.workspace_id,
                               details={"vault_id": str(session.vault_id), "purpose": session.purpose})
               for session in completed]
    await write_rows(entries, then=_complete_sql, then_values=[
        [s.id for s in completed], [s.signature for s in completed], [s.completed_at for s in completed]])


def aggregator_of(session_id: uuid.UUID, participants: Sequence[int]) -> int | None:
    """The service signer that aggregates the session when service signers store its shares:
    one of its service participants, chosen by the session's id (None: it has none).

    Whoever stored the last share used to aggregate. The signer that also aggregates is the
    slower one, so it was the later one again for the next batch and ended up aggregating
    every session, busy most of the time while the other idled half of it
    (bench/signing_pools.py); chosen by the id, each signer aggregates its share of the sessions."""
    service = sorted(p for p in participants if p in SERVICE_PARTICIPANTS)
    return service[session_id.int % len(service)] if service else None


async def aggregate_ready(session_ids: Sequence[uuid.UUID],
                          commitments: dict[uuid.UUID, list[frost.SigningCommitments]] | None = None,
                          *, participant: int, storing: Sequence[tuple] = ()) -> int:
    """Complete every round-2 session of ``session_ids`` whose shares are all in and whose
    aggregator (:func:`aggregator_of`) is the service signer ``participant``; returns how many.

    ``storing``: this signer's new shares ``(session id, participant, share)``, inserted by the
    statement that locks the sessions (one round trip less per batch; the shares are read by the
    next statement, which sees them).

    Called by a signer after storing its shares, in the same transaction: the sessions are
    locked in id order (two signers finishing overlapping batches wait, never deadlock) and
    their shares read after the lock, so of two signers the later sees the other's committed
    share. When that one is not the session's aggregator, it wakes the aggregator after the
    commit (the aggregator's signing step completes the sessions of its wake-up that wait for
    it; a lost wake-up is found by :func:`lost_wakeups`). ``commitments`` (by session) saves
    reading them again. Threshold ECDSA sessions are never completed here (their signers' ``sign``
    commands do it).
    """
    db = connections.get("default")
    ids = sorted(set(session_ids))
    if storing:
        _, found = await db.execute_query(_store_and_lock_sql(), [ids, *_share_values(storing)])
    else:
        _, found = await db.execute_query(_lock_round2_sql(), [ids])
    locked = [SigningSession._init_from_db(**row) for row in found]  # noqa: SLF001  (tortoise's own row -> model)
    if not locked:
        return 0
    shares: dict[uuid.UUID, list[tuple[int, bytes]]] = {}
    for row in await db.execute_query_dict(_SHARES_SQL, [[s.id for s in locked]]):
        shares.setdefault(row["session_id"], []).append((row["participant"], bytes(row["share"])))
    ready = []
    for session in locked:
        if {p for p, _ in shares.get(session.id, [])} != set(session.participants):
            continue
        aggregator = aggregator_of(session.id, session.participants)
        if aggregator in (None, participant):
            ready.append(session)
        else:
            wake_after_commit(keys.signer_actor(aggregator, SIGN_SESSIONS), str(session.id))
    if not ready:
        return 0
    key_sets = await ready_key_sets([s.key_set_id for s in ready])
    ready = [s for s in ready if not presignatures.is_ecdsa(key_sets[s.key_set_id])]
    known = dict(commitments or {})
    missing = [s.id for s in ready if s.id not in known]
    if missing:
        known.update(await commitments_of(missing, {s.id: key_sets[s.key_set_id] for s in ready}))
    completed = []
    for session in ready:
        outcome = _combine(session, key_sets[session.key_set_id], known[session.id],
                           shares[session.id])
        if isinstance(outcome, _Failure):
            await fail_session(session, participant=outcome.participant, reason=outcome.reason)
            continue
        _mark_completed(session, outcome)
        completed.append(session)
    if completed:
        await _store_completed(completed)
    return len(ready)


# aggregate_ready's statements, written once: a signer runs them for every batch it completes,
# and tortoise would build them anew each time (its bulk update alone was a sixth of the
# aggregating signer's time, bench/signing_pools.py --profile).
@functools.cache
def _lock_round2_sql() -> str:
    """The round-2 sessions among ``$1``, locked in id order. (Made on first use: tortoise knows
    every column once it is set up.)"""
    return (f"SELECT {column_names(SigningSession)} FROM signing_sessions"
            " WHERE id = ANY($1::uuid[]) AND status = 'round2' ORDER BY id FOR NO KEY UPDATE")


@functools.cache
def _store_and_lock_sql() -> str:
    """:data:`_INSERT_SHARES_SQL`, then :func:`_lock_round2_sql`, as one statement. The same as the
    two in turn: the insert runs whether or not the query reads it, and takes on the sessions only
    the key-share locks of its foreign key, which the lock's FOR NO KEY UPDATE does not wait for."""
    return f"WITH stored AS ({_INSERT_SHARES_SQL}) {_lock_round2_sql()}"


_SHARES_SQL = "SELECT session_id, participant, share FROM signing_shares WHERE session_id = ANY($1::uuid[])"


@functools.cache
def _complete_sql(first: int) -> str:
    """:func:`_mark_completed`'s columns, for every completed session of the batch in one
    statement whose parameters (ids, signatures, times) start at ``$first``."""
    ids, signatures, times = (f"${number}" for number in range(first, first + 3))
    return ("UPDATE signing_sessions s SET status = 'completed', signature = c.signature, completed_at = c.at,"
            f" updated_at = c.at FROM unnest({ids}::uuid[], {signatures}::bytea[], {times}::timestamptz[])"
            " AS c(id, signature, at) WHERE s.id = c.id")


async def commitments_of(session_ids: Sequence[uuid.UUID], key_sets: dict[uuid.UUID, KeySet]
                         ) -> dict[uuid.UUID, list[frost.SigningCommitments]]:
    """The commitment lists of several sessions (one query), each sorted by participant, as the
    data class of the session's key set (``key_sets`` by session id)."""
    found: dict[uuid.UUID, list[frost.SigningCommitments]] = {session_id: [] for session_id in session_ids}
    for row in await SigningCommitment.filter(session_id__in=list(session_ids)).order_by("participant").values(
            "session_id", "participant", "hiding", "binding"):
        commitments = keys.suite(key_sets[row["session_id"]]).SigningCommitments
        found[row["session_id"]].append(commitments(row["participant"], bytes(row["hiding"]), bytes(row["binding"])))
    return found


#: Ready key sets this process read, by id: their public data (scheme, group key, verifying
#: shares, threshold) never changes once ready. Bounded, least recently used first out.
_READY_KEY_SETS: "OrderedDict[uuid.UUID, KeySet]" = OrderedDict()
READY_KEY_SET_CACHE_SIZE = 4096


async def ready_key_sets(key_set_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, KeySet]:
    """The key sets of ``key_set_ids`` (one query for those this process has not seen ready)."""
    found: dict[uuid.UUID, KeySet] = {}
    for key_set_id in key_set_ids:
        if (cached := _READY_KEY_SETS.get(key_set_id)) is not None:
            _READY_KEY_SETS.move_to_end(key_set_id)
            found[key_set_id] = cached
    missing = [k for k in set(key_set_ids) if k not in found]
    if missing:
        for key_set in await KeySet.filter(id__in=missing):
            found[key_set.id] = key_set
            if key_set.status == "ready":
                _READY_KEY_SETS[key_set.id] = key_set
        while len(_READY_KEY_SETS) > READY_KEY_SET_CACHE_SIZE:
            _READY_KEY_SETS.popitem(last=False)
    return found


# --------------------------------------------------------------------------------------------
# The sweep: lost wake-ups and refills
# --------------------------------------------------------------------------------------------


async def lost_wakeups(*, limit: int = 1000) -> dict[int, list[str]]:
    """Round-2 sessions still missing a service signer's share :data:`LOST_WAKEUP_SECONDS` after
    they entered round 2, by the participant to wake (oldest first); and those with every share
    in but not completed (the wake-up of their aggregator, :func:`aggregate_ready`, was lost), by
    their aggregator."""
    stale = clock.now() - timedelta(seconds=LOST_WAKEUP_SECONDS)
    # Threshold ECDSA sessions are not woken this way: their signers' `sign` commands are outbox
    # commands (domain.signing.presignatures), which are never lost.
    waiting = await SigningSession.filter(status="round2", updated_at__lt=stale).exclude(
        key_set__scheme=ECDSA_SCHEME).order_by("updated_at").limit(limit).values("id", "participants")
    if not waiting:
        return {}
    signed = {(row["session_id"], row["participant"]) for row in await SigningShare.filter(
        session_id__in=[w["id"] for w in waiting]).values("session_id", "participant")}
    wake: dict[int, list[str]] = {}
    for row in waiting:
        missing = [p for p in row["participants"] if (row["id"], p) not in signed]
        for participant in missing:
            if participant in SERVICE_PARTICIPANTS:
                wake.setdefault(participant, []).append(str(row["id"]))
        aggregator = aggregator_of(row["id"], row["participants"])
        if not missing and aggregator is not None:
            wake.setdefault(aggregator, []).append(str(row["id"]))
    return wake


async def schemes_in_use() -> list[str]:
    """The schemes of ready key sets: those whose nonce stocks the sweep keeps filled."""
    schemes = await KeySet.filter(status="ready").exclude(scheme=ECDSA_SCHEME).distinct().values_list(
        "scheme", flat=True)
    return sorted({str(scheme) for scheme in schemes})  # (threshold ECDSA stocks presignatures instead)


async def complete_session(session: SigningSession, signature: bytes) -> None:
    """round2 -> completed with the verified ``signature`` (the session row locked, in the
    caller's transaction): audited, and its requester woken after commit."""
    _mark_completed(session, signature)
    await _store_completed([session])
