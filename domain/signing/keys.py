"""Key sets: one threshold key per vault and scheme, created by distributed key generation.

A vault has a FROST(Ed25519) key set (Solana and the devnets) and, when the workspace's networks
need one, a FROST(secp256k1) Taproot key set (Bitcoin): :func:`schemes_for` says which. Both are
made by the same DKG pipeline below, through the same participants; the scheme's
:class:`~threshold.suites.Suite` supplies the group, the DKG and the data classes.

Layout: 2 of 3. Participants 1 and 2 are the service's signer processes (see
:mod:`domain.signing.service_signer`, which runs in them), participant 3 is the client's co-signer (a headless
co-signer or a paired device, through the API: :mod:`domain.signing.cosigner`). The group secret never
exists: each participant only ever holds its own polynomial and its final share.

The coordinator is a pipeline of outbox commands; its state is the :class:`~models.keys.KeySet`
row and the public packages in PostgreSQL::

    request_key_generation ─▶ signer_1.dkg_round1, signer_2.dkg_round1   (+ co-signer round 1 via API)
    keys.collect_round1    ─▶ all round-1 broadcasts in: status round2, signer_N.dkg_round2
    keys.collect_round2    ─▶ all round-2 packages in:   status finalize, signer_N.dkg_finalize
    keys.collect_results   ─▶ both signers' results + the co-signer's committed part agree: ready

Every step locks the key set row and checks the status first, so a redelivered or repeated
command changes nothing. A participant caught cheating (bad proof of knowledge, a share that
does not match its commitments, an undecryptable package) fails the key set naming it.

What the wallet/vault code calls (inside its own unit of work)::

    key_set = await keys.request_key_generation(vault=vault)
    public_key = await keys.group_public_key(vault_id=vault.id, workspace_id=vault.workspace_id)
"""

from __future__ import annotations

import os
import uuid
from datetime import timedelta

from core import clock
from core.outbox import add_command
from core.settings import get_settings
from domain import audit
from domain.errors import Conflict, NotFound
from models.cosigner import CosignerPart
from models.keys import DkgPackage, DkgResult, KeySet, SignerDkgState, SignerKeyShare
from models.vaults import Vault
from threshold import frost, protocol
from threshold.cosigner_part import parse_config
from threshold.pedersen import DkgCheatingParticipant
from threshold.scheme import (
    COSIGNER_PARTICIPANT,
    ED25519_SCHEME,
    MAX_SIGNERS,
    MIN_SIGNERS,
    SERVICE_PARTICIPANTS,
)
from threshold.suites import Suite, suite_of

COLLECT_ROUND1 = "keys.collect_round1"
COLLECT_ROUND2 = "keys.collect_round2"
COLLECT_RESULTS = "keys.collect_results"
#: Scheduled actor: fail key generations not ready within KEY_GENERATION_TIMEOUT_SECONDS.
EXPIRE_STALE = "keys.expire_stale"
EXPIRE_STALE_INTERVAL_SECONDS = 60

#: Statuses of a key set, in order (``failed`` may follow any non-final one).
STATUSES = ("round1", "round2", "finalize", "ready", "failed")
IN_PROGRESS = ("round1", "round2", "finalize")


async def step_done(key_set: KeySet, collector: str) -> None:
    """A participant finished a DKG step: enqueue the coordinator's ``collector``
    (:data:`COLLECT_ROUND1`, :data:`COLLECT_ROUND2` or :data:`COLLECT_RESULTS`), which moves the
    key set on once every participant's part is in and does nothing otherwise."""
    await add_command(actor_name=collector, payload={"key_set_id": str(key_set.id)},
                      workspace_id=key_set.workspace_id)


def signer_actor(participant: int, step: str) -> str:
    """Name of signer ``participant``'s actor for ``step`` (its own queue ``signer_<n>``)."""
    return f"signer_{participant}.{step}"


def dkg_context(key_set_id: uuid.UUID) -> bytes:
    """The DKG session context: binds every proof of knowledge to this key set and attempt."""
    return b"custody-dkg:v1:" + str(key_set_id).encode() + b":" + os.urandom(16).hex().encode()


class KeySetNotReady(Conflict):
    code = "KEY_SET_NOT_READY"


def suite(key_set: KeySet) -> Suite:
    """The threshold suite of a key set's scheme (group, DKG, data classes, engines)."""
    return suite_of(key_set.scheme)


def schemes_for(network_ids: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    """The key schemes a vault needs for these networks: FROST(Ed25519) always (the vault's key
    in the API), plus every other network's key scheme (``key_scheme_of``), in a stable order."""
    from domain.networks.registry import key_scheme_of_network  # networks import signing's neighbours

    wanted = {ED25519_SCHEME} | {key_scheme_of_network(n) for n in network_ids}
    return [ED25519_SCHEME] + sorted(wanted - {ED25519_SCHEME})


async def request_key_generation(*, vault: Vault, actor_id: uuid.UUID | None = None,
                                 scheme: str = ED25519_SCHEME) -> KeySet:
    """Create the vault's key set of ``scheme`` and start its DKG (call it in the vault's unit of work).

    Writes the key set row and the signers' round-1 commands in the caller's transaction; the
    co-signer joins through the API. A vault has at most one key set per scheme that is not
    ``failed``; after a failure this starts a fresh attempt (new context, nothing reused).
    """
    suite_of(scheme)  # an unknown scheme is a programming error: refuse before writing anything
    locked = await Vault.filter(id=vault.id).select_for_update(no_key=True).first()
    if locked is None:
        raise NotFound("vault not found", code="VAULT_NOT_FOUND")
    existing = await KeySet.filter(vault_id=vault.id, scheme=scheme).exclude(status="failed").first()
    if existing is not None:
        raise Conflict("the vault already has a key set", code="KEY_SET_EXISTS",
                       details={"key_set_id": str(existing.id), "status": existing.status, "scheme": scheme})
    limit = get_settings().max_key_generations_in_progress
    # Counted per vault: a vault's key sets of several schemes are one key generation to the limit.
    in_progress = len(set(await KeySet.filter(workspace_id=locked.workspace_id,
                                              status__in=list(IN_PROGRESS)).exclude(vault_id=locked.id)
                          .values_list("vault_id", flat=True)))
    if in_progress >= limit:
        raise Conflict(f"the workspace already has {in_progress} key generations in progress (at most {limit}); "
                       "wait for them to finish or fail", code="KEY_GENERATION_LIMIT_REACHED",
                       details={"limit": limit, "in_progress": in_progress})
    key_set_id = uuid.uuid4()
    key_set = await KeySet.create(
        id=key_set_id, workspace_id=locked.workspace_id, vault_id=locked.id,
        scheme=scheme, min_signers=MIN_SIGNERS, max_signers=MAX_SIGNERS, context=dkg_context(key_set_id),
    )
    for participant in SERVICE_PARTICIPANTS:
        await add_command(actor_name=signer_actor(participant, "dkg_round1"),
                          payload={"key_set_id": str(key_set.id)}, workspace_id=key_set.workspace_id)
    await audit.record(action="key_set.generation_requested", object_type="key_set", object_id=key_set.id,
                       actor_id=actor_id, workspace_id=key_set.workspace_id,
                       details={"vault_id": str(locked.id), "min_signers": MIN_SIGNERS, "max_signers": MAX_SIGNERS,
                                "scheme": scheme})
    return key_set


async def get_key_set(*, vault_id: uuid.UUID, workspace_id: uuid.UUID | None = None,
                      scheme: str = ED25519_SCHEME) -> KeySet:
    """The vault's current key set of ``scheme`` (the newest one), scoped to ``workspace_id`` when given.

    A vault of another workspace answers exactly like a missing one.
    """
    query = KeySet.filter(vault_id=vault_id, scheme=scheme)
    if workspace_id is not None:
        query = query.filter(workspace_id=workspace_id)
    # The live one (at most one per scheme) wins over failed ones, whatever their timestamps.
    key_set = await query.exclude(status="failed").first() or await query.order_by("-created_at").first()
    if key_set is None:
        raise NotFound("no key set for this vault", code="KEY_SET_NOT_FOUND")
    return key_set


async def group_public_key(*, vault_id: uuid.UUID, workspace_id: uuid.UUID | None = None,
                           scheme: str = ED25519_SCHEME) -> bytes:
    """The vault's group public key of ``scheme`` (32-byte Ed25519, 33-byte SEC1 secp256k1);
    409 KEY_SET_NOT_READY while DKG runs."""
    key_set = await get_key_set(vault_id=vault_id, workspace_id=workspace_id, scheme=scheme)
    if key_set.status != "ready":
        raise KeySetNotReady("the vault's key is not ready", details={"status": key_set.status, "scheme": scheme})
    return bytes(key_set.group_public_key)  # type: ignore[arg-type]  # set once ready


def public_key_package(key_set: KeySet) -> protocol.PublicKeyPackage:
    """The ready key set's public package (group key, every verifying share, threshold)."""
    if key_set.status != "ready" or key_set.group_public_key is None or not key_set.verifying_shares:
        raise KeySetNotReady("the key set is not ready", details={"status": key_set.status})
    return suite(key_set).PublicKeyPackage(
        bytes(key_set.group_public_key),
        {int(i): bytes.fromhex(v) for i, v in key_set.verifying_shares.items()},
        key_set.min_signers,
    )


def master_xpub(group_public_key: bytes) -> str:
    """The documented text encoding of a group public key: lowercase hex of its bytes (32 for
    Ed25519, the 33-byte SEC1 compressed key for secp256k1)."""
    return bytes(group_public_key).hex()


async def lock_key_set(key_set_id: uuid.UUID | str) -> KeySet | None:
    """Lock the key set row for this transaction (every DKG step serializes on it).

    FOR NO KEY UPDATE: packages referencing the row may still be inserted concurrently.
    """
    return await KeySet.filter(id=key_set_id).select_for_update(no_key=True).first()


async def fail(key_set: KeySet, *, participant: int | None, reason: str) -> None:
    """End the DKG: record who is at fault (if known) and destroy the signers' secrets of this run."""
    if key_set.status in ("ready", "failed"):
        return
    key_set.status = "failed"
    key_set.failed_participant = participant
    key_set.failure_reason = reason[:2000]
    await key_set.save(update_fields=["status", "failed_participant", "failure_reason"])
    # Secret material of a failed run is useless and must not linger.
    await SignerDkgState.filter(key_set_id=key_set.id).delete()
    await SignerKeyShare.filter(key_set_id=key_set.id).delete()
    await audit.record(action="key_set.failed", object_type="key_set", object_id=key_set.id, actor_id=None,
                       workspace_id=key_set.workspace_id,
                       details={"participant": participant, "reason": reason[:500]})


def all_participants(key_set: KeySet) -> list[int]:
    return list(range(1, key_set.max_signers + 1))


async def round1_commitments(key_set: KeySet) -> dict[int, tuple[bytes, ...]]:
    """Every participant's round-1 coefficient commitments (validated encodings)."""
    rows = await DkgPackage.filter(key_set_id=key_set.id, round=1).order_by("sender")
    round1_package = suite(key_set).Round1Package
    return {row.sender: round1_package.from_dict(row.payload["package"]).commitments for row in rows}


async def expected_public_key_package(key_set: KeySet) -> protocol.PublicKeyPackage:
    """The public package every honest participant must derive, from the round-1 broadcasts."""
    return suite(key_set).dkg.public_key_package_from_commitments(await round1_commitments(key_set),
                                                                  key_set.min_signers)


# --------------------------------------------------------------------------------------------
# Coordinator steps (actors/keys.py)
# --------------------------------------------------------------------------------------------


async def collect_round1(*, key_set_id: uuid.UUID | str) -> bool:
    """All round-1 broadcasts in: move to round 2 and ask the signers for their shares."""
    key_set = await lock_key_set(key_set_id)
    if key_set is None or key_set.status != "round1":
        return False
    senders = set(await DkgPackage.filter(key_set_id=key_set.id, round=1).values_list("sender", flat=True))
    if senders != set(all_participants(key_set)):  # type: ignore[comparison-overlap]  # flat values_list
        return False
    try:
        # Public sanity check of the broadcast: a joint key equal to the identity is unusable.
        await expected_public_key_package(key_set)
    except DkgCheatingParticipant as exc:
        await fail(key_set, participant=exc.participant, reason=str(exc))
        return True
    except frost.FrostError as exc:
        await fail(key_set, participant=None, reason=str(exc))
        return True
    key_set.status = "round2"
    await key_set.save(update_fields=["status"])
    for participant in SERVICE_PARTICIPANTS:
        await add_command(actor_name=signer_actor(participant, "dkg_round2"),
                          payload={"key_set_id": str(key_set.id)}, workspace_id=key_set.workspace_id)
    return True


async def collect_round2(*, key_set_id: uuid.UUID | str) -> bool:
    """Every participant sent a round-2 package to every other one: finalize."""
    key_set = await lock_key_set(key_set_id)
    if key_set is None or key_set.status != "round2":
        return False
    pairs = set(await DkgPackage.filter(key_set_id=key_set.id, round=2).values_list("sender", "recipient"))
    ids = all_participants(key_set)
    if pairs != {(s, r) for s in ids for r in ids if s != r}:
        return False
    key_set.status = "finalize"
    await key_set.save(update_fields=["status"])
    for participant in SERVICE_PARTICIPANTS:
        await add_command(actor_name=signer_actor(participant, "dkg_finalize"),
                          payload={"key_set_id": str(key_set.id)}, workspace_id=key_set.workspace_id)
    return True


async def collect_results(*, key_set_id: uuid.UUID | str) -> bool:
    """Both signers finalized and the co-signer committed its part: check agreement, ready.

    Every participant must have derived the public package the round-1 broadcasts define; a
    participant that reports anything else saw a different broadcast (or lies) and is named.
    """
    key_set = await lock_key_set(key_set_id)
    if key_set is None or key_set.status != "finalize":
        return False
    results = {r.participant: r for r in await DkgResult.filter(key_set_id=key_set.id)}
    part = await CosignerPart.get_or_none(key_set_id=key_set.id)
    if set(results) != set(SERVICE_PARTICIPANTS) or part is None or part.status != "committed":
        return False
    expected = await expected_public_key_package(key_set)
    for participant in SERVICE_PARTICIPANTS:
        reported = suite(key_set).PublicKeyPackage.from_dict(results[participant].public_key_package)
        if reported != expected:
            await fail(key_set, participant=participant, reason="reported a different public key package")
            return True
    config = parse_config(part.config, scheme=key_set.scheme)
    if (config.group_public_key != expected.group_public_key
            or config.verifying_share != expected.verifying_shares[COSIGNER_PARTICIPANT]):
        await fail(key_set, participant=COSIGNER_PARTICIPANT, reason="co-signer part does not match the key set")
        return True
    key_set.status = "ready"
    key_set.group_public_key = expected.group_public_key
    key_set.verifying_shares = {str(i): v.hex() for i, v in expected.verifying_shares.items()}
    key_set.ready_at = clock.now()
    await key_set.save(update_fields=["status", "group_public_key", "verifying_shares", "ready_at"])
    await audit.record(action="key_set.ready", object_type="key_set", object_id=key_set.id, actor_id=None,
                       workspace_id=key_set.workspace_id,
                       details={"vault_id": str(key_set.vault_id),
                                "master_xpub": master_xpub(expected.group_public_key), "scheme": key_set.scheme})
    return True




# --------------------------------------------------------------------------------------------
# Time limit (scheduled: keys.expire_stale)
# --------------------------------------------------------------------------------------------


async def waiting_for(key_set: KeySet) -> list[int]:
    """The participants whose part of the current step is missing."""
    ids = all_participants(key_set)
    if key_set.status == "round1":
        sent = set(await DkgPackage.filter(key_set_id=key_set.id, round=1).values_list("sender", flat=True))
        return [p for p in ids if p not in sent]  # type: ignore[comparison-overlap]  # flat values_list
    if key_set.status == "round2":
        pairs = set(await DkgPackage.filter(key_set_id=key_set.id, round=2).values_list("sender", "recipient"))
        return [s for s in ids if any((s, r) not in pairs for r in ids if r != s)]
    if key_set.status == "finalize":
        reported = set(await DkgResult.filter(key_set_id=key_set.id).values_list("participant", flat=True))
        missing = [p for p in SERVICE_PARTICIPANTS if p not in reported]  # type: ignore[comparison-overlap]  # flat values_list
        part = await CosignerPart.get_or_none(key_set_id=key_set.id)
        if part is None or part.status != "committed":
            missing.append(COSIGNER_PARTICIPANT)
        return missing
    return []


async def expire_stale_generations(*, timeout: timedelta | None = None) -> list[uuid.UUID]:
    """Fail every key generation older than ``timeout`` (KEY_GENERATION_TIMEOUT_SECONDS), naming
    the participants it waited for, so that it never waits forever (a co-signer that never
    came). Returns the key sets failed. Runs in the caller's unit of work."""
    timeout = timeout or timedelta(seconds=get_settings().key_generation_timeout_seconds)
    cutoff = clock.now() - timeout
    stale = await KeySet.filter(status__in=list(IN_PROGRESS), created_at__lte=cutoff).order_by("created_at") \
        .select_for_update(skip_locked=True, no_key=True).limit(100)
    failed = []
    for key_set in stale:
        missing = await waiting_for(key_set)
        who = ", ".join(_participant_name(p) for p in missing) or "no participant"
        reason = (f"timed out: not ready within {int(timeout.total_seconds())} s; the {key_set.status} step was "
                  f"still waiting for {who}")
        # Nobody cheated: no participant is at fault, only absent.
        await fail(key_set, participant=None, reason=reason)
        failed.append(key_set.id)
    return failed


def _participant_name(participant: int) -> str:
    if participant == COSIGNER_PARTICIPANT:
        return f"the co-signer (participant {participant})"
    return f"service signer {participant}"
