"""The single-use stock: secret material made ahead of time by the signers, each item used once.

Some signing material must never be used twice, because using it twice reveals the key: a
threshold ECDSA presignature (two signatures with one presignature give the private key;
tests/domain/signing/test_ecdsa_sessions.py shows it with the library's own outputs), or a
FROST round-one nonce. The stock keeps such material in PostgreSQL (:mod:`models.stock`) and
enforces the one rule that matters, across processes, crashes and retries:

1. :func:`open_items` creates items (status ``filling``) for a key set and a ``kind``, naming the
   participants that will each hold a part; the participants make the material together and
   each stores its own part sealed with its own key (:func:`store_part`); the last part in
   makes the item ``ready`` (parts that disagree on the public data discard it);
2. :func:`take` gives a ready item to one signing session, in the caller's transaction (the
   session's own): ``FOR UPDATE SKIP LOCKED`` on the item, ``taken`` with the session's id
   (unique). The participants are asked to use their parts only after that transaction
   committed (outbox commands), so no participant uses a part of an item that two sessions
   could hold;
3. :func:`use_part` gives a participant its sealed part of the item its session took and deletes
   it, in the participant's transaction that publishes what it made with it: a second call (a
   redelivered command, a crash and retry, another session) finds nothing and must refuse
   (:class:`PartAlreadyUsed`). A part is never handed out twice;
4. :func:`discard` ends items that can never become ready (a run that failed half way), and
   deletes their parts.

What the material is and how it is made is the caller's business (``kind``); the stock only
counts (:func:`available`), hands out and destroys.
"""

from __future__ import annotations

import uuid
from typing import Any, Sequence

from core import clock
from domain.errors import Conflict
from models.stock import StockItem, StockPart


class PartAlreadyUsed(Conflict):
    """The participant's part of the session's item is gone (used, or never there): refuse."""

    code = "STOCK_PART_ALREADY_USED"


async def open_items(*, key_set_id: uuid.UUID, kind: str, participants: Sequence[int], count: int) -> list[StockItem]:
    """``count`` new items (status ``filling``), each to hold one part per participant."""
    return [await StockItem.create(key_set_id=key_set_id, kind=kind, participants=sorted(participants))
            for _ in range(count)]


async def store_part(*, item_id: uuid.UUID | str, participant: int, sealed: bytes,
                     public: dict[str, Any]) -> StockItem | None:
    """Store ``participant``'s sealed part of a filling item; the item is ``ready`` once every
    participant stored its part and all agree on ``public``. Returns the item when this part made
    it ready, else None (still filling, or discarded because the public data disagree, or the
    item is no longer filling)."""
    item = await StockItem.filter(id=item_id).select_for_update(no_key=True).first()
    if item is None or item.status != "filling" or participant not in item.participants:
        return None
    if item.public is not None and item.public != public:
        await discard(item, reason=f"participant {participant}'s part disagrees with the others'")
        return None
    await StockPart.create(item_id=item.id, participant=participant, sealed=bytes(sealed))
    item.public = public
    present = set(await StockPart.filter(item_id=item.id).values_list("participant", flat=True))
    if present != set(item.participants):
        await item.save(update_fields=["public"])
        return None
    item.status = "ready"
    await item.save(update_fields=["public", "status"])
    return item


async def take(*, key_set_id: uuid.UUID, kind: str, session_id: uuid.UUID) -> StockItem | None:
    """Give the oldest ready item of the key set to ``session_id`` (in the caller's transaction,
    which must commit before any participant uses its part); None when the stock is empty."""
    item = (await StockItem.filter(key_set_id=key_set_id, kind=kind, status="ready").order_by("created_at")
            .select_for_update(skip_locked=True, no_key=True).first())
    if item is None:
        return None
    item.status, item.session_id, item.taken_at = "taken", session_id, clock.now()  # type: ignore[attr-defined]
    await item.save(update_fields=["status", "session_id", "taken_at"])
    return item


async def taken_by(session_id: uuid.UUID) -> StockItem | None:
    """The item a session took, if any."""
    return await StockItem.get_or_none(session_id=session_id, status="taken")


async def use_part(*, session_id: uuid.UUID, participant: int) -> tuple[StockItem, bytes]:
    """The participant's sealed part of the item ``session_id`` took, deleted in the caller's
    transaction (commit it with what was made from it). :class:`PartAlreadyUsed` when there is
    none: it was used already (never hand it out twice), or the session took no item."""
    item = await taken_by(session_id)
    part = None if item is None else await StockPart.filter(
        item_id=item.id, participant=participant).select_for_update().first()
    if item is None or part is None:
        raise PartAlreadyUsed(f"participant {participant} holds no unused stock part for this session; "
                              "it will not use one again",
                              details={"participant": participant, "session_id": str(session_id)})
    sealed = bytes(part.sealed)
    await part.delete()
    return item, sealed


async def discard(item: StockItem, *, reason: str) -> None:
    """End an item that must never be used (its row locked by the caller); its parts are deleted."""
    if item.status in ("taken", "discarded"):
        return
    item.status, item.failure_reason = "discarded", reason[:2000]
    await item.save(update_fields=["status", "failure_reason"])
    await StockPart.filter(item_id=item.id).delete()


async def discard_unfinished(*, item_ids: Sequence[uuid.UUID | str], reason: str) -> int:
    """Discard the given items that are still filling (a run that stopped half way)."""
    count = 0
    for item in await StockItem.filter(id__in=list(item_ids), status="filling").select_for_update(no_key=True):
        await discard(item, reason=reason)
        count += 1
    return count


async def available(*, key_set_id: uuid.UUID, kind: str) -> int:
    """Ready items of the key set."""
    return await StockItem.filter(key_set_id=key_set_id, kind=kind, status="ready").count()


async def filling(*, key_set_id: uuid.UUID, kind: str) -> int:
    """Items of the key set being made."""
    return await StockItem.filter(key_set_id=key_set_id, kind=kind, status="filling").count()
