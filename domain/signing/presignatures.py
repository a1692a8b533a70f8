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
   presignatures are available, both signers are nudged to make ``ECDSA_PRESIGNATURE_BATCH``
   (4 unless configured) more together
   (``signer_N.ecdsa_refill``: two triples and a presignature each, over a Redis channel between
   the two processes); each signer adds its own part to the stock as soon as it is made.
2. **Taking one.** A session (status ``round1``) takes a presignature in the transaction that
   creates it (:func:`start`): both signers' parts with the same ``R``
   (:func:`~domain.signing.stock.take_matching`). When the stock is empty it waits, and the
   presignature completed next goes to the oldest waiting session (:func:`assign_waiting`).
   Taking binds the parts to that session for ever and moves it to ``round2``; the signers are
   asked to sign (``signer_N.sign``) through the outbox, after that transaction committed. A
   session signs with exactly two participants: signers 1 and 2, or (a policy that requires the
   co-signer's share) a service signer and the co-signer, ``{1, 3}`` by default or ``{2, 3}``.
   A presignature is of one pair (:func:`kind_of`): the co-signer's are made with it (rule 5).
3. **Signing** (domain.signing.service_signer, in each signer): the signer's part is used
   (wiped) in the transaction that publishes its signature share (its one message); a second
   request finds no part and is refused. A Rust panic or a protocol error fails the session with
   the library's reason.
4. **Combining** (:func:`combine`, by whoever stores the last share): ``s = sum s_i`` (low s),
   ``r`` from ``R``; the signature is checked by libsecp256k1 under the group key before the
   session is ``completed`` (the pipeline checks it again against the address, and the adapter
   recovers the sender from it before broadcasting).
5. **The co-signer's presignatures** (domain.signing.cosigner): the co-signer, a process of the
   client reached through the API, starts a run with one service signer (its bearer token and
   its seat checked on every call, as for its FROST messages); the service relays the protocol
   messages between it and that signer (Redis lists, :mod:`core.channels`); the signer stores
   its part in the stock (holder ``"1"`` or ``"2"``, kind of the pair), the co-signer keeps its
   own on its disk and then registers it (:func:`register_cosigner_part`: a stock item of holder
   ``"3"`` whose "secret" is only a marker, since the secret never leaves the client). A session
   takes both items of one ``R`` like any other; the co-signer's item is used in the transaction
   that stores its share. Parts without a partner are wiped by the sweep (:func:`sweep_stock`).
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

from core import clock
from core.outbox import add_command
from core.settings import get_settings
from core.unit_of_work import nudge_after_commit
from domain.errors import ValidationFailed
from domain.signing import keys, stock
from models.keys import KeySet
from models.sessions import SigningSession, SigningShare
from threshold.scheme import COSIGNER_PARTICIPANT, ECDSA_SCHEME, SERVICE_PARTICIPANTS

logger = logging.getLogger(__name__)

#: The stock's kind for threshold ECDSA presignatures of the two service signers.
KIND = f"ecdsa-presignature:{ECDSA_SCHEME}"
#: The holders of a presignature's parts: each service signer.
HOLDERS: tuple[str, ...] = tuple(stock.holder_of(p) for p in SERVICE_PARTICIPANTS)
#: The pairs that may sign an ECDSA session (sorted): the service signers, or one of them with the co-signer.
PAIRS: tuple[tuple[int, int], ...] = ((1, 2), (1, COSIGNER_PARTICIPANT), (2, COSIGNER_PARTICIPANT))
#: The pair a policy that requires the co-signer signs with unless the request names the other one.
DEFAULT_COSIGNER_PAIR: tuple[int, int] = (1, COSIGNER_PARTICIPANT)
#: Top up when fewer than this many presignatures are available.
LOW_WATER = 2
#: The signers' actor that makes a batch of presignatures together.
REFILL_STEP = "ecdsa_refill"
#: The signer's actor that makes one presignature with the co-signer (messages relayed by the API).
COSIGNER_RUN_STEP = "ecdsa_cosigner_presign"
#: How long a co-signer run's lists and description live in Redis, and how long the signer waits
#: for each of the co-signer's messages (it polls the API).
COSIGNER_RUN_TTL_SECONDS = 600
COSIGNER_MESSAGE_TIMEOUT_SECONDS = 60.0
#: At most this many presignatures of one key set and co-signer pair in stock (runs beyond are refused).
MAX_COSIGNER_STOCK = 8
#: What the stock keeps as the "secret" of the co-signer's part: its secret is on the client's disk.
COSIGNER_MARKER = b"held by the co-signer"
#: A part whose partner has not come this long after it was stored is wiped by :func:`sweep_stock`
#: (a run's messages wait 30 s at most each, a co-signer's run a few minutes at most).
ORPHAN_GRACE_SECONDS = 900
#: How long a session waits for the signer's part of a presignature the co-signer registered
#: before the co-signer is asked to make another one (``presign`` again).
PARTNER_WAIT_SECONDS = 60
#: The scheduler's job that runs :func:`sweep_stock` (actors/sessions.py) and how often.
SWEEP_STOCK = "signing.sweep_presignatures"
SWEEP_STOCK_INTERVAL_SECONDS = 60


def is_ecdsa(key_set: KeySet) -> bool:
    return key_set.scheme == ECDSA_SCHEME


def pair_of(participants: list[int] | tuple[int, ...]) -> tuple[int, int]:
    chosen = tuple(sorted(participants))
    if chosen not in PAIRS:
        raise ValueError(f"{list(participants)} is not a signing pair")
    return chosen


def kind_of(pair: tuple[int, int] | list[int]) -> str:
    """The stock's kind for presignatures of ``pair`` (those of the service signers keep :data:`KIND`)."""
    pair = pair_of(pair)
    return KIND if pair == (1, 2) else f"{KIND}:{stock.holder_of(pair)}"


def holders_of(pair: tuple[int, int] | list[int]) -> tuple[str, ...]:
    return tuple(stock.holder_of(p) for p in pair_of(pair))


def check_request(message: bytes, participants: list[int]) -> None:
    """An ECDSA session signs a 32-byte digest, by exactly one pair (rule 2)."""
    if len(message) != 32:
        raise ValidationFailed("a threshold ECDSA signature is of a 32-byte digest", code="INVALID_MESSAGE",
                               details={"field": "message"})
    if tuple(sorted(participants)) not in PAIRS:
        raise ValidationFailed("threshold ECDSA key sets sign with exactly two participants: signers 1 and 2, or "
                               "one service signer and the co-signer", code="INVALID_PARTICIPANTS",
                               details={"participants": participants, "scheme": ECDSA_SCHEME})


def default_participants(cosigner_required: bool) -> list[int]:
    return list(DEFAULT_COSIGNER_PAIR if cosigner_required else SERVICE_PARTICIPANTS)


async def available(key_set_id: uuid.UUID, pair: tuple[int, int] = (1, 2)) -> int:
    """Presignatures of the key set and pair available to a session (every part stored)."""
    kind = kind_of(pair)
    return min([await stock.count(kind=kind, holder=holder, key_set_id=key_set_id) for holder in holders_of(pair)])


async def ensure_stock(key_set: KeySet, pair: tuple[int, int] = (1, 2)) -> bool:
    """Rule 1: nudge both signers to make ``ECDSA_PRESIGNATURE_BATCH`` presignatures when fewer than
    :data:`LOW_WATER` are available (each signer runs one batch at a time: a nudge while it is
    busy is dropped). True when a run was asked for. The co-signer's pairs are made by the
    co-signer's own runs (rule 5): nothing to nudge here."""
    if tuple(pair) != (1, 2) or await available(key_set.id) >= LOW_WATER:
        return False
    run = str(uuid.uuid4())  # both signers meet on this run's channels
    batch = get_settings().ecdsa_presignature_batch
    for participant in SERVICE_PARTICIPANTS:
        nudge_after_commit(keys.signer_actor(participant, REFILL_STEP), str(key_set.id), run, batch)
    return True


async def _take(session: SigningSession, key_set: KeySet) -> bool:
    """Rule 2 on a locked ``round1`` session: take a presignature, move to ``round2``, ask the signers."""
    pair = pair_of(session.participants)
    try:
        await stock.take_matching(kind=kind_of(pair), holders=holders_of(pair), session_id=session.id,
                                  key_set_id=key_set.id)
    except stock.StockEmpty:
        return False
    session.status = "round2"
    await session.save(update_fields=["status"])
    for participant in session.participants:
        if participant in SERVICE_PARTICIPANTS:
            await add_command(actor_name=keys.signer_actor(participant, "sign"),
                              payload={"session_id": str(session.id)}, workspace_id=session.workspace_id)
    return True


async def start(session: SigningSession, key_set: KeySet) -> bool:
    """A new ECDSA session (in its creating transaction): take a presignature if one is
    available, and top the stock up either way. False: the session waits for the next one made."""
    taken = await _take(session, key_set)
    await ensure_stock(key_set, pair_of(session.participants))
    return taken


async def assign_waiting(key_set: KeySet, pair: tuple[int, int] = (1, 2)) -> bool:
    """A presignature of ``pair`` was completed: give one to the oldest session of the key set
    and pair waiting in ``round1`` (if any, and if every part of one is in)."""
    # The pair is matched in SQL (the participants list holds exactly the pair's two numbers, in
    # either order), so one row is locked, not every waiting session of the key set.
    waiting = await SigningSession.filter(
        key_set_id=key_set.id, status="round1", participants__contains=list(pair),
        participants__contained_by=list(pair)).order_by("created_at") \
        .select_for_update(skip_locked=True, no_key=True).first()
    if waiting is None:
        return False
    if not await _take(waiting, key_set):
        return False
    await ensure_stock(key_set, tuple(pair))  # type: ignore[arg-type]
    return True


async def lock_for_parts(key_set_id: uuid.UUID) -> KeySet:
    """Lock the key set row before adding a part and looking for its partner: the two holders of
    one presignature store their parts at the same moment, and without this each transaction
    would miss the other's uncommitted part (both commit, no session gets the presignature)."""
    return await KeySet.filter(id=key_set_id).select_for_update(no_key=True).get()


async def register_cosigner_part(key_set: KeySet, pair: tuple[int, int], big_r: bytes) -> bool:
    """Rule 5: the co-signer stored its part of a presignature of ``pair`` whose ``R`` is
    ``big_r`` on its disk: record it in the stock (a marker, not a secret) so that a session can
    take it with the signer's part of the same ``R``, and give it to a waiting session. Once
    per ``R`` (a repeated registration changes nothing; False)."""
    kind = kind_of(pair)
    holder = stock.holder_of(COSIGNER_PARTICIPANT)
    key_set = await lock_for_parts(key_set.id)
    if await stock.exists(kind=kind, holder=holder, key_set_id=key_set.id, public=big_r):
        return False
    await stock.add(kind=kind, holder=holder, key_set_id=key_set.id, items=[(big_r, COSIGNER_MARKER)],
                    share_key=None)
    await assign_waiting(key_set, pair)
    return True


async def cosigner_part_pending(key_set_id: uuid.UUID, pair: tuple[int, int]) -> bool:
    """Whether the co-signer registered a part of ``pair`` in the last :data:`PARTNER_WAIT_SECONDS`
    whose signer's part is not in yet (the signer stores it in a moment: no new run is needed)."""
    kind = kind_of(pair)
    signer = next(h for h in holders_of(pair) if h != stock.holder_of(COSIGNER_PARTICIPANT))
    return await stock.unmatched_since(kind=kind, holder=stock.holder_of(COSIGNER_PARTICIPANT), partner=signer,
                                       key_set_id=key_set_id,
                                       since=clock.now() - timedelta(seconds=PARTNER_WAIT_SECONDS))


async def sweep_stock(*, grace_seconds: int = ORPHAN_GRACE_SECONDS) -> dict[str, int]:
    """Wipe presignature parts that can never sign (their secrets, not just their state): parts
    older than ``grace_seconds`` (the injectable clock) whose partner never came, and the
    available parts of key sets that will never sign again; then delete a batch of spent stock
    rows of any kind past :data:`~domain.signing.stock.SPENT_RETENTION`. Logged with the counts."""
    before = clock.now() - timedelta(seconds=grace_seconds)
    unmatched = 0
    for pair in PAIRS:
        unmatched += await stock.discard_unmatched(kind=kind_of(pair), holders=holders_of(pair), before=before)
    retired = await stock.discard_retired(kinds=[kind_of(pair) for pair in PAIRS])
    # Spent rows of every kind (FROST nonces too: this is the stock's one sweep), a batch per run.
    purged = await stock.purge(before=clock.now() - stock.SPENT_RETENTION)
    if unmatched or retired or purged:
        logger.info("stock sweep: wiped %d presignature part(s) without a partner and %d of retired key sets; "
                    "deleted %d spent row(s)", unmatched, retired, purged)
    return {"unmatched": unmatched, "retired": retired, "purged": purged}


class CombineFailed(Exception):
    """The shares give no valid signature: ``participant`` names the culprit when known."""

    def __init__(self, reason: str, participant: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.participant = reason, participant


async def combine(session: SigningSession, key_set: KeySet, rows: list[SigningShare]) -> bytes:
    """Rule 4: the 64-byte ``r || s`` signature from every signer's share, verified under the
    group key; :class:`CombineFailed` otherwise (the caller fails the session)."""
    from threshold import ecdsa  # the Rust library loads only where ECDSA is used

    pair = pair_of(session.participants)
    parts = await stock.taken(session_id=session.id, kind=kind_of(pair))
    if len(parts) != len(pair) or len({part.public for part in parts}) != 1 or parts[0].public is None:
        raise CombineFailed("the session took no presignature")
    shares = []
    for row in rows:
        if row.participant == COSIGNER_PARTICIPANT:  # the co-signer sends s_i itself: 32 bytes big-endian
            shares.append(int.from_bytes(bytes(row.share), "big"))
            continue
        try:
            shares.append(ecdsa.signature_share(bytes(row.share)))
        except ecdsa.InvalidParameters as exc:
            raise CombineFailed(f"signature share of participant {row.participant}: {exc}", row.participant) from None
    try:
        signature = ecdsa.combine(bytes(key_set.group_public_key), bytes(session.message),  # type: ignore[arg-type]
                                  bytes(parts[0].public), shares)
    except ecdsa.FrostError as exc:
        # With the co-signer taking part, its share is the one the service did not make.
        blamed = COSIGNER_PARTICIPANT if COSIGNER_PARTICIPANT in pair else None
        raise CombineFailed(f"threshold ECDSA signing failed: {exc}", blamed) from None
    return signature.to_bytes()
