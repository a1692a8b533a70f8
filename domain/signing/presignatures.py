"""Threshold ECDSA signing sessions: presignatures from the single-use stock, then one round.

A key set of scheme ``ECDSA-secp256k1-cait-sith-v1`` (EVM accounts; :mod:`threshold.ecdsa`,
unaudited, docs/signing.md) signs with presignatures that the two service signers make ahead of
time and keep in the single-use stock (:mod:`domain.signing.stock`, kind
:data:`KIND`). Rules, in the order the code applies them:

1. **The stock.** After a key set is ready and whenever a session takes an item, the stock of
   the key set is topped up (:func:`ensure_stock`): when fewer than :data:`LOW_WATER` items are
   ready or being made, :data:`BATCH` new items are opened (``filling``) and both signers are
   nudged to make them together (``signer_N.ecdsa_refill``: two triples and a presignature per
   item, over a Redis channel between the two processes; each seals its own part with its own
   key). Items left ``filling`` for :data:`REFILL_TIMEOUT` (a signer died mid run) are
   discarded, never finished later.
2. **Taking one.** A session (status ``round1``) takes a ready item in the transaction that
   creates it (:func:`start`), or, when the stock is empty, the first item that becomes ready
   goes to the oldest waiting session (:func:`assign_waiting`). Taking sets the item ``taken``
   by that session (unique) and the session ``round2``, and asks both signers to sign
   (``signer_N.sign``) through the outbox: after that transaction committed. Signers 1 and 2
   sign; a policy that requires the co-signer's share cannot be met by this scheme yet and is
   refused (``COSIGNER_NOT_SUPPORTED``).
3. **Signing** (domain.signing.service_signer, in each signer): the signer's part of the item
   is deleted in the transaction that publishes its signature share (its one message); a second
   request finds no part and is refused. A Rust panic or a protocol error fails the session
   with the library's reason.
4. **Combining** (:func:`aggregate`, by whoever stores the last share): ``s = sum s_i`` (low s),
   ``r`` from the item's public ``big_r``; the signature is checked by libsecp256k1 under the
   group key before the session is ``completed`` (the pipeline checks it again against the
   address, and the adapter recovers the sender from it before broadcasting).
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from core import clock
from core.outbox import add_command
from core.unit_of_work import nudge_after_commit
from domain.errors import ValidationFailed
from domain.signing import keys, stock
from models.keys import KeySet
from models.sessions import SigningSession, SigningShare
from models.stock import StockItem
from threshold.scheme import ECDSA_SCHEME, SERVICE_PARTICIPANTS

#: The stock's kind for threshold ECDSA presignatures.
KIND = "ecdsa_presignature"
#: Top up when fewer than this many items are ready or being made.
LOW_WATER = 2
#: Items opened per top-up (one run of both signers).
BATCH = 4
#: A run not finished within this time is given up (its items discarded).
REFILL_TIMEOUT = timedelta(minutes=5)
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


async def ensure_stock(key_set: KeySet) -> int:
    """Rule 1: top the key set's stock up when it runs low; returns the items opened."""
    stale = await StockItem.filter(key_set_id=key_set.id, kind=KIND, status="filling",
                                   created_at__lte=clock.now() - REFILL_TIMEOUT).values_list("id", flat=True)
    if stale:
        await stock.discard_unfinished(item_ids=list(stale), reason="not made in time (a signer stopped mid run)")
    have = (await stock.available(key_set_id=key_set.id, kind=KIND)
            + await stock.filling(key_set_id=key_set.id, kind=KIND))
    if have >= LOW_WATER:
        return 0
    items = await stock.open_items(key_set_id=key_set.id, kind=KIND, participants=SERVICE_PARTICIPANTS, count=BATCH)
    run = str(uuid.uuid4())
    item_ids = ",".join(str(item.id) for item in items)
    for participant in SERVICE_PARTICIPANTS:
        nudge_after_commit(keys.signer_actor(participant, REFILL_STEP), str(key_set.id), run, item_ids)
    return len(items)


async def _take(session: SigningSession, key_set: KeySet) -> bool:
    """Rule 2 on a locked ``round1`` session: take an item, move to ``round2``, ask the signers."""
    item = await stock.take(key_set_id=key_set.id, kind=KIND, session_id=session.id)
    if item is None:
        return False
    session.status = "round2"
    await session.save(update_fields=["status"])
    for participant in session.participants:
        await add_command(actor_name=keys.signer_actor(participant, "sign"), payload={"session_id": str(session.id)},
                          workspace_id=session.workspace_id)  # type: ignore[attr-defined]
    return True


async def start(session: SigningSession, key_set: KeySet) -> bool:
    """A new ECDSA session (in its creating transaction): take an item if one is ready, and top
    the stock up either way. False: the session waits for the next item made."""
    taken = await _take(session, key_set)
    await ensure_stock(key_set)
    return taken


async def assign_waiting(item: StockItem) -> bool:
    """An item became ready: give it to the oldest session of its key set waiting in ``round1``."""
    key_set = await KeySet.get(id=item.key_set_id)  # type: ignore[attr-defined]
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

    item = await StockItem.get_or_none(session_id=session.id)
    if item is None or not item.public or "big_r" not in item.public:
        raise CombineFailed("the session took no presignature")
    shares = []
    for row in rows:
        try:
            shares.append(ecdsa.signature_share(bytes(row.share)))
        except ecdsa.InvalidParameters as exc:
            raise CombineFailed(f"signature share of participant {row.participant}: {exc}", row.participant) from None
    try:
        signature = ecdsa.combine(bytes(key_set.group_public_key), bytes(session.message),  # type: ignore[arg-type]
                                  bytes.fromhex(item.public["big_r"]), shares)
    except ecdsa.FrostError as exc:
        raise CombineFailed(f"threshold ECDSA signing failed: {exc}") from None
    return signature.to_bytes()
