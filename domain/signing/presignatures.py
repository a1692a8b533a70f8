"""Threshold ECDSA signing sessions: presignatures from the single-use stock, then one round.

A key set of scheme ``ECDSA-secp256k1-cait-sith-v1`` (EVM accounts; :mod:`threshold.ecdsa`,
unaudited, docs/signing.md) signs with presignatures that the two service signers make ahead of
time and keep in the single-use stock (:mod:`domain.signing.stock`, the one mechanism that also
holds the FROST round-one nonces; kind :data:`KIND`, one item per signer: holder ``"1"`` and
``"2"``, each sealed with that signer's key, public part the presignature's ``R``). Rules, in
the order the code applies them:

1. **The stock.** Whenever a session of the key set starts, its stock is topped up
   (:func:`ensure_stock`; not when the key set becomes ready: most vaults' ECDSA key sets never
   sign, and the first signature waits for the first batch): when fewer than :data:`LOW_WATER`
   presignatures are available, both signers are nudged to make :data:`BATCH` more together
   (``signer_N.ecdsa_refill``: two triples and a presignature each, over a Redis channel between
   the two processes); each signer adds its own part to the stock as soon as it is made.
2. **Taking one.** A session (status ``round1``) takes a presignature in the transaction that
   creates it (:func:`start`): both signers' parts with the same ``R``
   (:func:`~domain.signing.stock.take_matching`). When the stock is empty it waits, and the
   presignature completed next goes to the oldest waiting session (:func:`assign_waiting`).
   Taking binds the parts to that session for ever and moves it to ``round2``; the signers are
   asked to sign (``signer_N.sign``) through the outbox, after that transaction committed. Signers
   1 and 2 sign; a policy that requires the co-signer's share cannot be met by this scheme yet
   and is refused (``COSIGNER_NOT_SUPPORTED``).
3. **Signing** (domain.signing.service_signer, in each signer): the signer's part is used
   (wiped) in the transaction that publishes its signature share (its one message); a second
   request finds no part and is refused. A Rust panic or a protocol error fails the session with
   the library's reason.
4. **Combining** (:func:`combine`, by whoever stores the last share): ``s = sum s_i`` (low s),
   ``r`` from ``R``; the signature is checked by libsecp256k1 under the group key before the
   session is ``completed`` (the pipeline checks it again against the address, and the adapter
   recovers the sender from it before broadcasting).
"""

from __future__ import annotations

import uuid

from core.outbox import add_command
from core.unit_of_work import nudge_after_commit
from domain.errors import ValidationFailed
from domain.signing import keys, stock
from models.keys import KeySet
from models.sessions import SigningSession, SigningShare
from threshold.scheme import ECDSA_SCHEME, SERVICE_PARTICIPANTS

#: The stock's kind for threshold ECDSA presignatures.
KIND = f"ecdsa-presignature:{ECDSA_SCHEME}"
#: The holders of a presignature's parts: each service signer.
HOLDERS: tuple[str, ...] = tuple(stock.holder_of(p) for p in SERVICE_PARTICIPANTS)
#: Top up when fewer than this many presignatures are available.
LOW_WATER = 2
#: Presignatures made per top-up (one run of both signers).
BATCH = 4
#: The signers' actor that makes a batch of presignatures together.
REFILL_STEP = "ecdsa_refill"


def is_ecdsa(key_set: KeySet) -> bool:
    return key_set.scheme == ECDSA_SCHEME


def check_request(message: bytes, participants: list[int]) -> None:
    """An ECDSA session signs a 32-byte digest, by the two service signers (rule 2)."""
    if len(message) != 32:
        raise ValidationFailed("a threshold ECDSA signature is of a 32-byte digest", code="INVALID_MESSAGE",
                               details={"field": "message"})
    if sorted(participants) != sorted(SERVICE_PARTICIPANTS):
        raise ValidationFailed("threshold ECDSA key sets are signed by the two service signers only; the "
                               "co-signer's share cannot take part yet", code="COSIGNER_NOT_SUPPORTED",
                               details={"participants": participants, "scheme": ECDSA_SCHEME})


async def available(key_set_id: uuid.UUID) -> int:
    """Presignatures of the key set available to a session (both signers' parts stored)."""
    return min([await stock.count(kind=KIND, holder=holder, key_set_id=key_set_id) for holder in HOLDERS])


async def ensure_stock(key_set: KeySet) -> bool:
    """Rule 1: nudge both signers to make :data:`BATCH` presignatures when fewer than
    :data:`LOW_WATER` are available (each signer runs one batch at a time: a nudge while it is
    busy is dropped). True when a run was asked for."""
    if await available(key_set.id) >= LOW_WATER:
        return False
    run = str(uuid.uuid4())  # both signers meet on this run's channels
    for participant in SERVICE_PARTICIPANTS:
        nudge_after_commit(keys.signer_actor(participant, REFILL_STEP), str(key_set.id), run, BATCH)
    return True


async def _take(session: SigningSession, key_set: KeySet) -> bool:
    """Rule 2 on a locked ``round1`` session: take a presignature, move to ``round2``, ask the signers."""
    try:
        await stock.take_matching(kind=KIND, holders=HOLDERS, session_id=session.id, key_set_id=key_set.id)
    except stock.StockEmpty:
        return False
    session.status = "round2"
    await session.save(update_fields=["status"])
    for participant in session.participants:
        await add_command(actor_name=keys.signer_actor(participant, "sign"), payload={"session_id": str(session.id)},
                          workspace_id=session.workspace_id)
    return True


async def start(session: SigningSession, key_set: KeySet) -> bool:
    """A new ECDSA session (in its creating transaction): take a presignature if one is
    available, and top the stock up either way. False: the session waits for the next one made."""
    taken = await _take(session, key_set)
    await ensure_stock(key_set)
    return taken


async def assign_waiting(key_set: KeySet) -> bool:
    """A presignature was completed: give one to the oldest session of the key set waiting in
    ``round1`` (if any, and if both parts of one are in)."""
    waiting = await SigningSession.filter(key_set_id=key_set.id, status="round1").order_by("created_at") \
        .select_for_update(skip_locked=True, no_key=True).first()
    if waiting is None:
        return False
    if not await _take(waiting, key_set):
        return False
    await ensure_stock(key_set)
    return True


class CombineFailed(Exception):
    """The shares give no valid signature: ``participant`` names the culprit when known."""

    def __init__(self, reason: str, participant: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.participant = reason, participant


async def combine(session: SigningSession, key_set: KeySet, rows: list[SigningShare]) -> bytes:
    """Rule 4: the 64-byte ``r || s`` signature from every signer's share, verified under the
    group key; :class:`CombineFailed` otherwise (the caller fails the session)."""
    from threshold import ecdsa  # the Rust library loads only where ECDSA is used

    parts = await stock.taken(session_id=session.id, kind=KIND)
    if len(parts) != len(HOLDERS) or len({part.public for part in parts}) != 1 or parts[0].public is None:
        raise CombineFailed("the session took no presignature")
    shares = []
    for row in rows:
        try:
            shares.append(ecdsa.signature_share(bytes(row.share)))
        except ecdsa.InvalidParameters as exc:
            raise CombineFailed(f"signature share of participant {row.participant}: {exc}", row.participant) from None
    try:
        signature = ecdsa.combine(bytes(key_set.group_public_key), bytes(session.message),  # type: ignore[arg-type]
                                  bytes(parts[0].public), shares)
    except ecdsa.FrostError as exc:
        raise CombineFailed(f"threshold ECDSA signing failed: {exc}") from None
    return signature.to_bytes()
