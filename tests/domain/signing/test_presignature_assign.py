"""A presignature completed while sessions wait goes to the oldest waiting session of its pair
(domain.signing.presignatures.assign_waiting, rule 2): a session of another pair is neither given
it nor locked."""

from __future__ import annotations

import nacl.utils

from core.db import transaction
from core.unit_of_work import unit_of_work
from domain.signing import presignatures, stock
from models.keys import KeySet
from models.sessions import SigningSession
from models.stock import StockItem
from tests.support.signing import key_set_row

KEY = nacl.utils.random(32)


async def _waiting(key_set: KeySet, participants: list[int], purpose: str) -> SigningSession:
    async with unit_of_work():
        return await SigningSession.create(workspace_id=key_set.workspace_id, vault_id=key_set.vault_id,
                                           key_set_id=key_set.id, message=b"m" * 32, purpose=purpose,
                                           participants=participants)


async def test_a_completed_presignature_goes_to_the_oldest_session_of_its_pair(database, frozen_clock):
    # Given a key set with three sessions waiting in round1: the oldest signs with the co-signer
    # (pair 1 and 3), then two with the service signers (pair 1 and 2)
    key_set = await key_set_row("Assign")
    with_cosigner = await _waiting(key_set, [1, 3], "cosigner")
    oldest_service = await _waiting(key_set, [2, 1], "service-1")
    newer_service = await _waiting(key_set, [1, 2], "service-2")
    # And both parts of one presignature of pair 1 and 2 in stock
    async with transaction():
        for holder in (1, 2):
            await stock.add(kind=presignatures.kind_of((1, 2)), holder=str(holder), key_set_id=key_set.id,
                            items=[(b"R-one", b"secret part")], share_key=KEY)
    # When it is assigned
    async with unit_of_work():
        assigned = await presignatures.assign_waiting(key_set, (1, 2))
    # Then the oldest session of pair 1 and 2 took it and moved to round2, whatever the order of
    # its participants; the co-signer's session, older, and the newer one still wait
    assert assigned is True
    statuses = {s.purpose: s.status for s in await SigningSession.filter(key_set_id=key_set.id)}
    assert statuses == {"cosigner": "round1", "service-1": "round2", "service-2": "round1"}
    parts = await StockItem.filter(key_set_id=key_set.id)
    assert {p.session_id for p in parts} == {oldest_service.id}
    # When another presignature of the pair is completed with none in stock, nothing is assigned
    async with unit_of_work():
        assert await presignatures.assign_waiting(key_set, (1, 2)) is False
    assert (await SigningSession.get(id=newer_service.id)).status == "round1"
    assert (await SigningSession.get(id=with_cosigner.id)).status == "round1"
