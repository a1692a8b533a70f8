"""What a service signer (participant 1 or 2) does: its DKG rounds, signing rounds and backup export.

These functions run inside the signer's own process (actors/service_signer.py, queue ``signer_<n>``)
and take the signer's SecretBox key as ``share_key``. They read and write only rows of their
own ``participant`` (secret state, key share, nonces) plus public protocol data, so a signer
never sees the other signer's share: it could not decrypt it anyway.

Secrets at rest, all sealed with ``share_key`` (XSalsa20-Poly1305):

* DKG state between rounds (polynomial coefficients, then the own share ``f_i(i)`` and the
  transport private key), deleted at finalize;
* the key package (signing share), for as long as the key set exists;
* signing nonces: stocked ahead of time (domain/signing/nonces.py, in the single-use stock) or,
  when the stock was empty, created in a live round 1 (``signer_nonces``); either way spent
  (wiped) in the very transaction that stores the signature share, before the share is visible
  to anyone else. A second request to sign with a nonce finds none and is refused
  (:class:`NonceAlreadyUsed`, :class:`domain.signing.stock.StockItemUsed`).

Signing is batched: :func:`sign_sessions` signs every round-2 session of a wake-up message in one
transaction (read the sessions and their commitments, spend the stocked nonces, store the
shares, then lock the sessions and complete those whose shares are all in).

Round-2 DKG packages travel through PostgreSQL in a NaCl Box between per-session X25519
transport keys published with the round-1 broadcast, so neither the database nor the
coordinator nor the other signer can read a share addressed to someone else.
"""

from __future__ import annotations

import base64
import json
import logging
import uuid
from collections import OrderedDict
from typing import Any

from nacl.public import PrivateKey, PublicKey, SealedBox
from tortoise import connections

from core import sealing
from core.channels import BoxedChannels, MessageChannels
from core.outbox import add_command
from core.rows import by_key
from core.unit_of_work import nudge_after_commit
from domain.errors import Conflict, NotFound
from domain.signing import keys, nonces, presignatures, stock
from domain.signing.backups import ASSEMBLE
from domain.signing.sessions import (
    AGGREGATE,
    COLLECT_COMMITMENTS,
    REFILL_NONCES,
    aggregate_ready,
    commitment_list,
    fail_session,
    ready_key_sets,
    request_collection_if_complete,
    session_engine,
)
from models.backups import Backup, BackupPart
from models.keys import DkgPackage, DkgResult, KeySet, SignerDkgState, SignerKeyShare
from models.sessions import SignerNonce, SigningCommitment, SigningSession, SigningShare
from threshold import frost, protocol, scheme
from threshold.encoding import hex_or_none
from threshold.pedersen import DkgCheatingParticipant, Round1Package
from threshold.suites import suite_of
from threshold.transport import (
    open_round2_package,
    seal_round2_package,
    transport_key_is_usable,
)

logger = logging.getLogger(__name__)


class NonceAlreadyUsed(Conflict):
    """The signer's nonce for this session was used (or never made): it will not sign again."""

    code = "NONCE_ALREADY_USED"


def _seal(share_key: bytes, data: dict[str, Any]) -> bytes:
    return sealing.seal(json.dumps(data, separators=(",", ":")).encode(), key=share_key)


def _unseal(share_key: bytes, blob: bytes) -> dict[str, Any]:
    return json.loads(sealing.unseal(bytes(blob), key=share_key))


def _check_participant(participant: int) -> None:
    if participant not in scheme.SERVICE_PARTICIPANTS:
        raise ValueError(f"service signers are participants {scheme.SERVICE_PARTICIPANTS}, not {participant}")


#: Key packages this process unsealed, by (participant, key set, sealing key): a signer signs with
#: the same few keys all day, and reading, unsealing and parsing the share for each round was a
#: third of a round's work. A key package never changes once its key set is ready (only the
#: shares of a failed DKG are deleted, and those never sign), and the entry is found only with
#: the sealing key that opened it. Bounded, least recently used first out.
_KEY_PACKAGES: "OrderedDict[tuple[int, uuid.UUID, bytes], Any]" = OrderedDict()
KEY_PACKAGE_CACHE_SIZE = 4096


async def load_key_package(*, participant: int, share_key: bytes, key_set_id: uuid.UUID,
                           scheme: str | None = None, cached: bool = False) -> Any:
    """This signer's key package for the key set (decrypted in memory only), of the key set's
    scheme (read from the key set unless the caller knows it).

    ``cached``: the key set is ready (signing), so a package this process already unsealed may be
    used again; the DKG and backups always read the row."""
    _check_participant(participant)
    key = (participant, uuid.UUID(str(key_set_id)), bytes(share_key))
    if cached and (package := _KEY_PACKAGES.get(key)) is not None:
        _KEY_PACKAGES.move_to_end(key)
        return package
    row = await SignerKeyShare.get_or_none(key_set_id=key_set_id, participant=participant)
    if row is None:
        raise NotFound(f"signer {participant} holds no share of this key set", code="KEY_SHARE_NOT_FOUND")
    if scheme is None:
        scheme = (await KeySet.get(id=key_set_id)).scheme
    package = suite_of(scheme).KeyPackage.from_dict(_unseal(share_key, row.sealed_key_package))
    if cached:
        _KEY_PACKAGES[key] = package
        while len(_KEY_PACKAGES) > KEY_PACKAGE_CACHE_SIZE:
            _KEY_PACKAGES.popitem(last=False)
    return package


# --------------------------------------------------------------------------------------------
# Distributed key generation
# --------------------------------------------------------------------------------------------


async def dkg_round1(*, participant: int, share_key: bytes, key_set_id: uuid.UUID | str) -> bool:
    """Sample the polynomial, keep it sealed, broadcast commitments + proof + transport key."""
    _check_participant(participant)
    key_set = await keys.lock_key_set(key_set_id)
    if key_set is None or key_set.status != "round1":
        return False
    if await DkgPackage.exists(key_set_id=key_set.id, round=1, sender=participant):
        return False  # already done: a redelivered command
    secret, package = keys.suite(key_set).dkg.round1(participant, key_set.min_signers, key_set.max_signers,
                                                     bytes(key_set.context))
    transport = PrivateKey.generate()
    await SignerDkgState.create(
        key_set_id=key_set.id, participant=participant, round=1,
        sealed_state=_seal(share_key, {"round1": secret.to_dict(), "transport_private_key": bytes(transport).hex()}),
    )
    await DkgPackage.create(
        key_set_id=key_set.id, round=1, sender=participant, recipient=0,
        payload={"package": package.to_dict(), "transport_public_key": bytes(transport.public_key).hex()},
    )
    await keys.step_done(key_set, keys.COLLECT_ROUND1)
    return True


async def _own_state(key_set: KeySet, participant: int, share_key: bytes, round_: int) -> dict[str, Any] | None:
    row = await SignerDkgState.get_or_none(key_set_id=key_set.id, participant=participant)
    if row is None or row.round != round_:
        return None
    return _unseal(share_key, row.sealed_state)


async def dkg_round2(*, participant: int, share_key: bytes, key_set_id: uuid.UUID | str) -> bool:
    """Verify everyone's proof of knowledge, then send each participant its share, encrypted."""
    _check_participant(participant)
    key_set = await keys.lock_key_set(key_set_id)
    if key_set is None or key_set.status != "round2":
        return False
    if await DkgPackage.exists(key_set_id=key_set.id, round=2, sender=participant):
        return False
    state = await _own_state(key_set, participant, share_key, 1)
    if state is None:
        await keys.fail(key_set, participant=participant, reason="signer lost its round 1 state")
        return True
    dkg = keys.suite(key_set).dkg
    secret = dkg.Round1SecretPackage.from_dict(state["round1"])
    transport = PrivateKey(bytes.fromhex(state["transport_private_key"]))
    received: list[Round1Package] = []
    transport_keys: dict[int, bytes] = {}
    try:
        for row in await DkgPackage.filter(key_set_id=key_set.id, round=1).order_by("sender"):
            package = dkg.Round1Package.from_dict(row.payload["package"])
            if package.sender != row.sender:
                raise DkgCheatingParticipant(row.sender, "round 1 package names another sender")
            transport_key = hex_or_none(row.payload.get("transport_public_key"), size=32)
            if transport_key is None or not transport_key_is_usable(transport_key):
                raise DkgCheatingParticipant(row.sender, "unusable transport public key")
            transport_keys[row.sender] = transport_key
            if row.sender != participant:
                received.append(package)
        round2_secret, outgoing = dkg.round2(secret, received)
    except DkgCheatingParticipant as exc:
        await keys.fail(key_set, participant=exc.participant, reason=str(exc))
        return True
    for recipient, round2 in outgoing.items():
        ciphertext = seal_round2_package(round2, own=transport, recipient_transport_key=transport_keys[recipient])
        await DkgPackage.create(key_set_id=key_set.id, round=2, sender=participant, recipient=recipient,
                                payload={"ciphertext": ciphertext})
    await SignerDkgState.filter(key_set_id=key_set.id, participant=participant).update(
        round=2,
        sealed_state=_seal(share_key, {"round2": round2_secret.to_dict(),
                                       "transport_private_key": state["transport_private_key"]}),
    )
    await keys.step_done(key_set, keys.COLLECT_ROUND2)
    return True


async def dkg_finalize(*, participant: int, share_key: bytes, key_set_id: uuid.UUID | str) -> bool:
    """Verify the shares received, keep the resulting key package sealed, report the public result."""
    _check_participant(participant)
    key_set = await keys.lock_key_set(key_set_id)
    if key_set is None or key_set.status != "finalize":
        return False
    if await SignerKeyShare.exists(key_set_id=key_set.id, participant=participant):
        return False
    state = await _own_state(key_set, participant, share_key, 2)
    if state is None:
        await keys.fail(key_set, participant=participant, reason="signer lost its round 2 state")
        return True
    dkg = keys.suite(key_set).dkg
    secret = dkg.Round2SecretPackage.from_dict(state["round2"])
    own = PrivateKey(bytes.fromhex(state["transport_private_key"]))
    transport_keys = {
        row.sender: bytes.fromhex(row.payload["transport_public_key"])
        for row in await DkgPackage.filter(key_set_id=key_set.id, round=1)
    }
    try:
        received = [
            open_round2_package(own=own, recipient=participant, sender=row.sender,
                                sender_transport_key=transport_keys[row.sender],
                                ciphertext_b64=row.payload.get("ciphertext", ""), package_type=dkg.Round2Package)
            for row in await DkgPackage.filter(key_set_id=key_set.id, round=2, recipient=participant)
            .order_by("sender")
        ]
        key_package, public = dkg.finalize(secret, received)
    except DkgCheatingParticipant as exc:
        await keys.fail(key_set, participant=exc.participant, reason=str(exc))
        return True
    except frost.FrostError as exc:
        await keys.fail(key_set, participant=participant, reason=f"finalize failed: {exc}")
        return True
    await SignerKeyShare.create(key_set_id=key_set.id, participant=participant,
                                sealed_key_package=_seal(share_key, key_package.to_dict()),
                                verifying_share=key_package.verifying_share)
    await DkgResult.create(key_set_id=key_set.id, participant=participant, public_key_package=public.to_dict())
    await SignerDkgState.filter(key_set_id=key_set.id, participant=participant).delete()
    await keys.step_done(key_set, keys.COLLECT_RESULTS)
    return True


# --------------------------------------------------------------------------------------------
# Signing
# --------------------------------------------------------------------------------------------


async def _lock_session(session_id: uuid.UUID | str) -> SigningSession | None:
    return await by_key(SigningSession, session_id, lock="no key update")


async def commit(*, participant: int, share_key: bytes, session_id: uuid.UUID | str) -> protocol.SigningCommitments | None:
    """Round 1: make a fresh nonce pair, keep it sealed, publish its commitments.

    Returns None when there is nothing to do (session gone or past round 1, or this signer
    already committed: a redelivered command).
    """
    _check_participant(participant)
    session = await _lock_session(session_id)
    if session is None or session.status != "round1" or participant not in session.participants:
        return None
    if await SigningCommitment.exists(session_id=session.id, participant=participant):
        return None
    key_set = await KeySet.get(id=session.key_set_id)
    if presignatures.is_ecdsa(key_set):
        return None  # threshold ECDSA has no round 1: its presignature comes from the stock
    key_package = await load_key_package(participant=participant, share_key=share_key, cached=True,
                                         key_set_id=key_set.id, scheme=key_set.scheme)
    nonces, commitments = keys.suite(key_set).frost.commit(key_package)
    await SignerNonce.create(session_id=session.id, participant=participant,
                             sealed_nonces=sealing.seal(nonces.to_bytes(), key=share_key))
    await SigningCommitment.create(session_id=session.id, participant=participant,
                                   hiding=commitments.hiding, binding=commitments.binding)
    await request_collection_if_complete(session, COLLECT_COMMITMENTS)
    return commitments


async def sign(
    *, participant: int, share_key: bytes, session_id: uuid.UUID | str
) -> protocol.SignatureShare | None:
    """Round 2: sign with the stored nonce, destroy it, then publish the share.

    The nonce row is deleted before the share row is written, in one transaction: the share is
    visible only once the nonce is gone. Without a stored nonce this refuses
    (:class:`NonceAlreadyUsed`): nonces are never reused nor re-created for a session.
    A commitment list that does not contain this signer's own commitment unchanged is refused
    too: the nonce is destroyed unused, the session fails and this returns None.
    """
    _check_participant(participant)
    session = await _lock_session(session_id)
    if session is None:
        raise NotFound("signing session not found", code="SIGNING_SESSION_NOT_FOUND")
    if session.status != "round2" or participant not in session.participants:
        raise Conflict(f"signing session is {session.status}, not collecting shares from {participant}",
                       code="SIGNING_SESSION_NOT_IN_ROUND2")
    key_set = await KeySet.get(id=session.key_set_id)
    if presignatures.is_ecdsa(key_set):
        await _ecdsa_sign(participant=participant, share_key=share_key, session=session, key_set=key_set)
        return None
    suite = keys.suite(key_set)
    nonce_row = await SignerNonce.filter(session_id=session.id, participant=participant).select_for_update().first()
    if nonce_row is None:
        # A stocked nonce (spent, i.e. wiped, right here: the share below is stored in this transaction).
        try:
            item = await stock.use(session_id=session.id, holder=stock.holder_of(participant),
                                   kind=nonces.kind(key_set.scheme), share_key=share_key)
        except stock.StockItemUsed:
            raise NonceAlreadyUsed(
                f"signer {participant} has no unused nonce for this session; it will not sign again",
                details={"participant": participant, "session_id": str(session.id)}) from None
        secret = item.secret or b""
    else:
        secret = sealing.unseal(bytes(nonce_row.sealed_nonces), key=share_key)
    signing_nonces = suite.SigningNonces.from_bytes(secret)
    key_package = await load_key_package(participant=participant, share_key=share_key, cached=True,
                                         key_set_id=key_set.id, scheme=key_set.scheme)
    try:
        # The session's engine: Taproot sessions sign for the output key of their merkle root.
        share = session_engine(session, key_set).sign(key_package, signing_nonces, bytes(session.message),
                                                      await commitment_list(session, key_set),
                                                      min_signers=key_set.min_signers)
    except frost.FrostError as exc:
        # Never sign a list we did not commit to; the nonce is destroyed unused.
        if nonce_row is not None:
            await nonce_row.delete()
        await fail_session(session, participant=None, reason=f"signer {participant} refused to sign: {exc}")
        return None
    if nonce_row is not None:
        await nonce_row.delete()
    await SigningShare.create(session_id=session.id, participant=participant, share=share.share)
    await request_collection_if_complete(session, AGGREGATE)
    return share


async def sign_sessions(*, participant: int, share_key: bytes, session_ids: list[str] | list[uuid.UUID]) -> int:
    """Round 2 for a batch of sessions (a wake-up message), in the caller's transaction.

    1. Read the round-2 sessions of the batch that wait for this signer's share, and their
       commitments (no lock: nothing here changes them but completion, checked at step 4).
    2. Spend this signer's stocked nonce of each (one statement; an item another delivery of the
       same wake-up is spending is waited for, then found used: that one stores the share). Not
       skipped: a signing request that took other items while this session took its own may
       still hold this item's row lock (PostgreSQL keeps the lock of a row that failed its
       ``FOR UPDATE`` re-check), and skipping it left the session unsigned until the sweep. A
       session with a live-round-one nonce (``signer_nonces``) goes through :func:`sign`
       instead. A used nonce is never spent again (:func:`domain.signing.stock.use_each`
       returns only taken ones).
    3. Sign each with its own nonce (a commitment list without this signer's own commitment
       unchanged is refused: the session fails, the nonce is already wiped) and store the
       shares (one INSERT, in the statement of step 4 that locks the sessions): they become
       visible with the nonces' wiping, at commit.
    4. Lock the batch's sessions in id order and complete those whose shares are all in and
       that this signer aggregates (:func:`domain.signing.sessions.aggregate_ready`): those it
       just signed, and those the other signer, which stored the last share, woke it for.

    Returns the number of shares stored. Repeated or overlapping wake-ups do nothing more.
    """
    _check_participant(participant)
    ids = sorted({uuid.UUID(str(i)) for i in session_ids})
    found = await _waiting_for_share(participant, ids)
    key_sets = await ready_key_sets([s.key_set_id for s, _ in found])
    # Threshold ECDSA sessions are signed by their outbox `sign` commands (a presignature part,
    # not a nonce): never here.
    found = [(s, c) for s, c in found if not presignatures.is_ecdsa(key_sets[s.key_set_id])]
    if not found:  # a wake-up to aggregate (step 4), or a repeated one
        await aggregate_ready(ids, participant=participant)
        return 0
    waiting = [s for s, _ in found]
    key_set_of = {s.id: key_sets[s.key_set_id] for s in waiting}
    commitments = {s.id: [keys.suite(key_set_of[s.id]).SigningCommitments(p, h, b) for p, h, b in rows]
                   for s, rows in found}
    spent: dict[uuid.UUID, stock.Item] = {}
    for scheme_name in sorted({k.scheme for k in key_set_of.values()}):
        batch = [s.id for s in waiting if key_set_of[s.id].scheme == scheme_name]
        spent.update(await stock.use_each(session_ids=batch, holder=stock.holder_of(participant),
                                          kind=nonces.kind(scheme_name), share_key=share_key))
        _count_spent(participant, scheme_name, len(batch))
    shares: list[tuple[uuid.UUID, int, bytes]] = []
    for session in waiting:
        key_set = key_set_of[session.id]
        item = spent.get(session.id)
        if item is None:
            await _sign_without_stock(participant, share_key, session)
            continue
        key_package = await load_key_package(participant=participant, share_key=share_key, cached=True,
                                             key_set_id=key_set.id, scheme=key_set.scheme)
        try:
            share = session_engine(session, key_set).sign(
                key_package, keys.suite(key_set).SigningNonces.from_bytes(item.secret or b""),
                bytes(session.message), commitments[session.id], min_signers=key_set.min_signers)
        except frost.FrostError as exc:
            locked = await _lock_session(session.id)
            if locked is not None:
                await fail_session(locked, participant=None, reason=f"signer {participant} refused to sign: {exc}")
            continue
        shares.append((session.id, participant, share.share))
    # The shares stored by the statement that locks the batch's sessions (one round trip)
    await aggregate_ready(ids, commitments, participant=participant, storing=shares)
    return len(shares)


#: The round-2 sessions of a batch that wait for a participant's share (no share of it stored),
#: each with its commitments sorted by participant: one statement.
_WAITING_FOR_SHARE = """
SELECT s.*,
       ARRAY(SELECT c.participant FROM signing_commitments c WHERE c.session_id = s.id
             ORDER BY c.participant) AS "waiting__participants",
       ARRAY(SELECT c.hiding FROM signing_commitments c WHERE c.session_id = s.id
             ORDER BY c.participant) AS "waiting__hiding",
       ARRAY(SELECT c.binding FROM signing_commitments c WHERE c.session_id = s.id
             ORDER BY c.participant) AS "waiting__binding"
FROM signing_sessions s
WHERE s.id = ANY($1::uuid[]) AND s.status = 'round2'
  AND NOT EXISTS (SELECT 1 FROM signing_shares x WHERE x.session_id = s.id AND x.participant = $2)
ORDER BY s.id
"""


async def _waiting_for_share(participant: int, session_ids: list[uuid.UUID]
                             ) -> list[tuple[SigningSession, list[tuple[int, bytes, bytes]]]]:
    """Sessions of ``session_ids`` in round 2 with ``participant`` among their participants and
    no share of it yet, by id, each with its commitments ``(participant, hiding, binding)``
    sorted by participant (no lock: nothing here changes them but completion, checked later)."""
    rows = await connections.get("default").execute_query_dict(_WAITING_FOR_SHARE, [session_ids, participant])
    found = []
    for row in rows:
        row = dict(row)
        commitments = list(zip(row.pop("waiting__participants"), (bytes(h) for h in row.pop("waiting__hiding")),
                               (bytes(b) for b in row.pop("waiting__binding"))))
        session = SigningSession._init_from_db(**row)  # noqa: SLF001  (tortoise's own row → model)
        if participant in session.participants:
            found.append((session, commitments))
    return found


async def _sign_without_stock(participant: int, share_key: bytes, session: SigningSession) -> None:
    """A session of the batch whose stocked nonce this signer could not spend: the live round
    one's nonce when it has one (``signer_nonces``), else nothing. A stocked nonce is only ever
    spent in the transaction that stores the share (or fails the session), so a taken one that
    is not available here is being spent by another delivery of the same wake-up right now:
    that one stores the share, and this one must not fail the session."""
    if not await SignerNonce.exists(session_id=session.id, participant=participant):
        logger.info("signer %d: session %s: no nonce to spend here (signed by another delivery)", participant,
                    session.id)
        return
    try:
        await sign(participant=participant, share_key=share_key, session_id=session.id)
    except (NotFound, Conflict) as exc:
        logger.info("signer %d: session %s: %s", participant, session.id, exc.message)


#: Stocked nonces this process spent and has not replaced yet, by (participant, scheme).
_SPENT_SINCE_REFILL: dict[tuple[int, str], int] = {}


def _count_spent(participant: int, scheme: str, spent: int) -> None:
    key = (participant, scheme)
    _SPENT_SINCE_REFILL[key] = _SPENT_SINCE_REFILL.get(key, 0) + spent


def spent_to_replace(participant: int) -> bool:
    """Whether this process spent :data:`nonces.REFILL_CHECK_EVERY` stocked nonces of some scheme
    since it last replaced them (:func:`replace_spent_nonces`); no database round trip."""
    return any(count >= nonces.REFILL_CHECK_EVERY for (p, _), count in _SPENT_SINCE_REFILL.items()
               if p == participant)


async def replace_spent_nonces(*, participant: int, share_key: bytes) -> int:
    """Make as many nonce pairs as this process spent, per scheme, and stock them (the caller's
    transaction, after the one that spent them committed); returns how many were added.

    The signer processes that spend the stock make its replacement, in proportion to what each
    signs: the stock's production grows with the processes of the pool instead of resting on one
    nudged refill actor at a time, which at a sustained rate above what one process makes let
    the stock run dry (and requests fall back to the live round one, an outbox command per
    signer). Never above :data:`nonces.TARGET`; below :data:`nonces.LOW_WATER` the refill actor
    is nudged as well (a stock drained by something else: it tops up a chunk per transaction).
    """
    _check_participant(participant)
    holder = stock.holder_of(participant)
    added = 0
    for (p, scheme_name), spent in list(_SPENT_SINCE_REFILL.items()):
        if p != participant or spent < nonces.REFILL_CHECK_EVERY:
            continue
        _SPENT_SINCE_REFILL[(p, scheme_name)] = 0
        have = await stock.count(kind=nonces.kind(scheme_name), holder=holder)
        count = min(spent, nonces.TARGET - have)
        if count > 0:
            pairs = nonces.make(suite_of(scheme_name).frost, participant, share_key, count)
            await stock.add(kind=nonces.kind(scheme_name), holder=holder, items=pairs, share_key=share_key)
            added += count
        if have + max(count, 0) < nonces.LOW_WATER:
            nudge_after_commit(keys.signer_actor(participant, REFILL_NONCES), scheme_name)
    return added


async def refill_nonces(*, participant: int, share_key: bytes, scheme: str, chunk: int | None = None,
                        continuing: bool = False) -> int:
    """Below :data:`nonces.LOW_WATER` available (below :data:`nonces.TARGET` when ``continuing``
    a refill), add pairs up to :data:`nonces.TARGET`, at most ``chunk`` (default
    :data:`nonces.REFILL_CHUNK`) in this transaction; returns how many were added (the caller
    goes on, in a new transaction and ``continuing``, while that is more than zero)."""
    _check_participant(participant)
    holder = stock.holder_of(participant)
    have = await stock.count(kind=nonces.kind(scheme), holder=holder)
    if have >= (nonces.TARGET if continuing else nonces.LOW_WATER):
        return 0
    count = min(nonces.TARGET - have, chunk or nonces.REFILL_CHUNK)
    pairs = nonces.make(suite_of(scheme).frost, participant, share_key, count)
    await stock.add(kind=nonces.kind(scheme), holder=holder, items=pairs, share_key=share_key)
    return count


# --------------------------------------------------------------------------------------------
# Threshold ECDSA: presignatures made with the other signer, one signature share each
# --------------------------------------------------------------------------------------------


def _peer(participant: int) -> int:
    return next(p for p in scheme.SERVICE_PARTICIPANTS if p != participant)


async def _ecdsa_key_share(participant: int, share_key: bytes, key_set_id: uuid.UUID) -> Any:
    from threshold import ecdsa  # the Rust library loads only where ECDSA is used

    package = await load_key_package(participant=participant, share_key=share_key, cached=True,
                                     key_set_id=key_set_id, scheme=scheme.ECDSA_SCHEME)
    return ecdsa.KeyShare.from_key_package(package)


async def run_with_peer(party: Any, *, channels: MessageChannels | BoxedChannels, run: str, participant: int,
                        timeout: float, peer: int | None = None) -> Any:
    """Drive one two-party protocol run of threshold.ecdsa with the other signer, whose process
    runs the same call at the same time: what this party sends goes on the other's channel, what
    it receives comes from its own. :class:`~core.channels.ChannelTimeout` when the other is silent."""
    from threshold import ecdsa

    peer = _peer(participant) if peer is None else peer
    while True:
        for message in party.outgoing():
            channels.send(run, peer, message.data)
        if party.done:
            return party.result
        data = await channels.receive(run, participant, timeout=timeout)
        party.receive(ecdsa.Message(peer, participant, data))


async def make_presignature(*, participant: int, share_key: bytes, key_set_id: uuid.UUID, run: str,
                            channels: MessageChannels | BoxedChannels, timeout: float = 30.0,
                            pair: tuple[int, int] | None = None) -> Any:
    """Make one presignature of the key set with the other member of ``pair`` (default: the
    other signer; the co-signer's messages come relayed by the API): two triples, then the
    presignature from them (threshold.ecdsa consumes the triples; nothing is stored here).
    Raises ``FrostError`` (a Rust panic, a bad message) or ``ChannelTimeout``."""
    from threshold import ecdsa

    pair = tuple(scheme.SERVICE_PARTICIPANTS) if pair is None else pair  # type: ignore[assignment]
    assert pair is not None and participant in pair
    peer = next(p for p in pair if p != participant)
    key_share = await _ecdsa_key_share(participant, share_key, key_set_id)
    first = await run_with_peer(ecdsa.triple(participant, pair), channels=channels, run=f"{run}:t0",
                                participant=participant, timeout=timeout, peer=peer)
    second = await run_with_peer(ecdsa.triple(participant, pair), channels=channels, run=f"{run}:t1",
                                 participant=participant, timeout=timeout, peer=peer)
    return await run_with_peer(ecdsa.presign(participant, pair, key_share, first, second), channels=channels,
                               run=f"{run}:presign", participant=participant, timeout=timeout, peer=peer)


async def store_presignature(*, participant: int, share_key: bytes, key_set_id: uuid.UUID,
                             presignature: Any, pair: tuple[int, int] = (1, 2)) -> None:
    """Add this signer's part of a presignature to the stock (sealed with its key; public part
    ``R``, what the other signer's part carries too); once both parts are in, a session waiting
    for a presignature takes it."""
    key_set = await presignatures.lock_for_parts(key_set_id)  # the partner's part, if in, is visible
    await stock.add(kind=presignatures.kind_of(pair), holder=stock.holder_of(participant), key_set_id=key_set_id,
                    items=[(presignature.big_r, json.dumps(presignature.to_dict()).encode())], share_key=share_key)
    await presignatures.assign_waiting(key_set, pair)


async def _ecdsa_sign(*, participant: int, share_key: bytes, session: SigningSession, key_set: KeySet) -> None:
    """The signer's one message of a threshold ECDSA session (the session row locked, round2).

    Its part of the session's presignature is used (wiped) in this transaction, with the share
    it made stored: a second request finds no part and is refused (:class:`NonceAlreadyUsed`). A
    library failure (a Rust panic caught by threshold.ecdsa, a presignature of another key)
    fails the session naming this signer; the part is destroyed all the same."""
    from threshold import ecdsa

    try:
        item = await stock.use(session_id=session.id, holder=stock.holder_of(participant),
                               kind=presignatures.kind_of(session.participants), share_key=share_key)
    except stock.StockItemUsed as exc:
        raise NonceAlreadyUsed(exc.message, details=exc.details) from None
    try:
        presignature = ecdsa.Presignature.from_dict(json.loads(item.secret or b"{}"))
        key_share = await _ecdsa_key_share(participant, share_key, key_set.id)
        party = ecdsa.sign(participant, tuple(session.participants), key_share, presignature, bytes(session.message))
        messages = party.outgoing()
        if len(messages) != 1:
            raise ecdsa.ProtocolAborted("sign", f"{len(messages)} messages instead of one", participant)
        ecdsa.signature_share(messages[0].data)  # the coordinator can read it
    except ecdsa.FrostError as exc:
        await fail_session(session, participant=participant, reason=f"signer {participant}: {exc}")
        return
    await SigningShare.create(session_id=session.id, participant=participant, share=messages[0].data)
    await request_collection_if_complete(session, AGGREGATE)


# --------------------------------------------------------------------------------------------
# Backup export
# --------------------------------------------------------------------------------------------


async def export_backup(*, participant: int, share_key: bytes, backup_id: uuid.UUID | str) -> bool:
    """Seal each of this signer's shares of the backup's key sets to the backup public key.

    A share leaves the signer only inside a sealed box to the requester's Curve25519 key.
    """
    _check_participant(participant)
    backup = await Backup.filter(id=backup_id).select_for_update(no_key=True).first()
    if backup is None or backup.status != "in_progress":
        return False
    if await BackupPart.exists(backup_id=backup.id, participant=participant):
        return False
    sealer = SealedBox(PublicKey(bytes(backup.public_key)))
    entries = []
    for key_set_id in backup.key_set_ids:
        key_package = await load_key_package(participant=participant, share_key=share_key,
                                             key_set_id=uuid.UUID(key_set_id))
        sealed = sealer.encrypt(json.dumps(key_package.to_dict()).encode())
        entries.append({"key_set_id": key_set_id, "participant": participant,
                        "sealed_key_package": base64.b64encode(bytes(sealed)).decode()})
    await BackupPart.create(backup_id=backup.id, participant=participant, entries=entries)
    await add_command(actor_name=ASSEMBLE, payload={"backup_id": str(backup.id)},
                      workspace_id=backup.workspace_id)
    return True
