"""Round-one commitments made ahead of time (domain/signing/nonces.py): stocked, taken by one
session, spent once by the signer that made them, refilled; several sessions per wake-up."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from nacl.signing import VerifyKey

from core.outbox import Command
from core.unit_of_work import unit_of_work
from domain.signing import nonces, service_signer, sessions, stock
from domain.signing.signer_keys import signer_key
from models.sessions import SignerNonce, SigningCommitment, SigningSession, SigningShare
from models.stock import StockItem
from tests.support.signing import ready_vault, request_signature
from threshold.scheme import ED25519_SCHEME

KIND = nonces.kind(ED25519_SCHEME)


async def _stocked_signers(client, worker, tmp_path):
    """A ready vault, the in-process worker stopped (the test plays the signers), stocks filled."""
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    await worker.drain()
    await asyncio.to_thread(worker.stop)
    for participant in (1, 2):
        async with unit_of_work():
            await service_signer.refill_nonces(participant=participant, share_key=signer_key(participant),
                                               scheme=ED25519_SCHEME, chunk=nonces.TARGET)
    return setup


async def _sign_all(session_ids) -> None:
    """Each signer handles its wake-up, then signer 1 the one signer 2 sent it for the sessions it
    aggregates (sessions.aggregator_of; signer 2, the later one, aggregates its own at once)."""
    for participant in (1, 2, 1):
        async with unit_of_work():
            await service_signer.sign_sessions(participant=participant, share_key=signer_key(participant),
                                               session_ids=[str(i) for i in session_ids])


async def test_a_request_takes_stocked_commitments_and_signs_without_a_round_one(client, worker, tmp_path):
    # Given both signers have a stock of round-one commitments
    setup = await _stocked_signers(client, worker, tmp_path)
    assert await stock.count(kind=KIND, holder="1") == nonces.TARGET
    # When a signature is requested
    session = await request_signature(setup, b"stocked")
    # Then the session is in round 2 at once with one stocked commitment per signer, and no
    # round-one command was written
    assert session.status == "round2"
    taken = await stock.taken(session_id=session.id)
    assert [item.holder for item in taken] == ["1", "2"]
    stored = await SigningCommitment.filter(session_id=session.id).order_by("participant")
    assert [bytes(c.hiding) + bytes(c.binding) for c in stored] == [item.public for item in taken]
    assert not await Command.filter(actor_name__contains=".commit").exists()
    # And when the signers are woken it completes with a plain Ed25519 signature
    await _sign_all([session.id])
    completed = await SigningSession.get(id=session.id)
    assert completed.status == "completed"
    VerifyKey(bytes(setup.key_set.group_public_key)).verify(b"stocked", bytes(completed.signature))
    # And each stocked nonce is spent (its secret wiped), none live-made
    assert await StockItem.filter(session_id=session.id, state="used", sealed__isnull=True).count() == 2
    assert not await SignerNonce.filter(session_id=session.id).exists()


async def test_a_crash_after_taking_and_retries_never_use_a_nonce_twice(client, worker, tmp_path):
    setup = await _stocked_signers(client, worker, tmp_path)
    session = await request_signature(setup, b"crash")
    [item_1, _] = await stock.taken(session_id=session.id)
    # Given signer 1 crashes after spending its nonce and computing its share, before commit
    with pytest.raises(RuntimeError):
        async with unit_of_work():
            await service_signer.sign_sessions(participant=1, share_key=signer_key(1), session_ids=[str(session.id)])
            raise RuntimeError("crash before commit")
    # Then nothing left: the nonce is still taken by this session only, unused, and no share exists
    assert (await StockItem.get(id=item_1.id)).state == "taken"
    assert not await SigningShare.filter(session_id=session.id).exists()
    # When the wake-up is delivered again, twice, and the other signer signs
    await _sign_all([session.id])
    async with unit_of_work():
        assert await service_signer.sign_sessions(participant=1, share_key=signer_key(1),
                                                  session_ids=[str(session.id)]) == 0
    # Then the session completed with one share per signer, the nonce spent once
    assert (await SigningSession.get(id=session.id)).status == "completed"
    assert await SigningShare.filter(session_id=session.id).count() == 2
    assert (await StockItem.get(id=item_1.id)).state == "used"
    # And a direct request to sign again with that nonce is refused
    with pytest.raises(stock.StockItemUsed):
        async with unit_of_work():
            await stock.use(session_id=session.id, holder="1", kind=KIND, share_key=signer_key(1))
    # And a retried request is a new session with fresh commitments: no item serves two sessions
    again = await request_signature(setup, b"crash")
    assert {i.id for i in await stock.taken(session_id=again.id)}.isdisjoint(
        {i.id for i in await stock.taken(session_id=session.id)})
    assert await StockItem.filter(session_id__isnull=False).count() == 4


async def test_several_sessions_travel_in_one_wake_up_and_the_stock_refills(client, worker, tmp_path):
    setup = await _stocked_signers(client, worker, tmp_path)
    # Given five sessions requested in one unit of work
    async with unit_of_work():
        requested = [await sessions.request_signature(workspace_id=setup.workspace_id, vault_id=setup.vault.id,
                                                      message=f"batch {i}".encode(), purpose="test")
                     for i in range(5)]
    # When each signer handles them in one call (one wake-up message), and signer 1 the wake-up
    # signer 2 sent it for those it aggregates
    for participant in (1, 2):
        async with unit_of_work():
            stored = await service_signer.sign_sessions(participant=participant, share_key=signer_key(participant),
                                                        session_ids=[str(s.id) for s in requested])
        assert stored == 5
    async with unit_of_work():
        assert await service_signer.sign_sessions(participant=1, share_key=signer_key(1),
                                                  session_ids=[str(s.id) for s in requested]) == 0
    # Then all five completed and verify
    verify_key = VerifyKey(bytes(setup.key_set.group_public_key))
    for session in requested:
        done = await SigningSession.get(id=session.id)
        assert done.status == "completed"
        verify_key.verify(bytes(done.message), bytes(done.signature))
    # And a refill below the low-water mark tops the stock up, one above it adds nothing
    assert await stock.count(kind=KIND, holder="1") == nonces.TARGET - 5
    async with unit_of_work():
        assert await service_signer.refill_nonces(participant=1, share_key=signer_key(1), scheme=ED25519_SCHEME) == 0
        await stock.discard(kind=KIND, holder="1")
    async with unit_of_work():
        assert await service_signer.refill_nonces(participant=1, share_key=signer_key(1),
                                                  scheme=ED25519_SCHEME) == nonces.REFILL_CHUNK
    # (a refill goes on up to the target, a chunk per transaction)
    added = nonces.REFILL_CHUNK
    while added:
        async with unit_of_work():
            added = await service_signer.refill_nonces(participant=1, share_key=signer_key(1),
                                                       scheme=ED25519_SCHEME, continuing=True)
    assert await stock.count(kind=KIND, holder="1") == nonces.TARGET
    # And with signer 2's stock empty a request falls back to the live round one (nothing taken)
    async with unit_of_work():
        await stock.discard(kind=KIND, holder="2")
    fallback = await request_signature(setup, b"live")
    assert fallback.status == "round1" and await stock.taken(session_id=fallback.id) == []
    assert await Command.filter(actor_name="signer_2.commit").exists()


async def test_a_signer_process_replaces_the_nonces_it_spent_never_above_the_target(client, worker, tmp_path,
                                                                                  monkeypatch):
    setup = await _stocked_signers(client, worker, tmp_path)
    monkeypatch.setattr(service_signer, "_SPENT_SINCE_REFILL", {})
    monkeypatch.setattr(nonces, "REFILL_CHECK_EVERY", 3)
    # Given three sessions signed by signer 1 in this process (signer 2 has not signed yet)
    async with unit_of_work():
        requested = [await sessions.request_signature(workspace_id=setup.workspace_id, vault_id=setup.vault.id,
                                                      message=f"replace {i}".encode(), purpose="test")
                     for i in range(3)]
    async with unit_of_work():
        await service_signer.sign_sessions(participant=1, share_key=signer_key(1),
                                           session_ids=[str(s.id) for s in requested])
    assert await stock.count(kind=KIND, holder="1") == nonces.TARGET - 3
    assert service_signer.spent_to_replace(1) and not service_signer.spent_to_replace(2)
    # When it replaces what it spent
    async with unit_of_work():
        assert await service_signer.replace_spent_nonces(participant=1, share_key=signer_key(1)) == 3
    # Then the stock is back at the target with fresh pairs only signer 1 can open, and nothing is
    # left to replace
    assert await stock.count(kind=KIND, holder="1") == nonces.TARGET
    assert not service_signer.spent_to_replace(1)
    async with unit_of_work():
        assert await service_signer.replace_spent_nonces(participant=1, share_key=signer_key(1)) == 0
    assert await StockItem.filter(kind=KIND, holder="1", state="available").count() == nonces.TARGET
    # And signer 2's spending makes signer 2's pairs, capped at the target: a full stock gets none
    await _sign_all([s.id for s in requested])
    assert all(s.status == "completed" for s in await SigningSession.filter(id__in=[r.id for r in requested]))
    async with unit_of_work():
        await service_signer.refill_nonces(participant=2, share_key=signer_key(2), scheme=ED25519_SCHEME,
                                           continuing=True)
    assert await stock.count(kind=KIND, holder="2") == nonces.TARGET
    async with unit_of_work():
        assert await service_signer.replace_spent_nonces(participant=2, share_key=signer_key(2)) == 0
    assert await stock.count(kind=KIND, holder="2") == nonces.TARGET
    # And a pair it made signs: with every older pair of signer 1 gone, the next request takes one
    async with unit_of_work():
        await stock.discard(kind=KIND, holder="1")
    monkeypatch.setattr(service_signer, "_SPENT_SINCE_REFILL", {(1, ED25519_SCHEME): 3})
    async with unit_of_work():
        assert await service_signer.replace_spent_nonces(participant=1, share_key=signer_key(1)) == 3
    assert await stock.count(kind=KIND, holder="1") == 3
    fresh = await request_signature(setup, b"fresh pair")
    assert fresh.status == "round2"
    await _sign_all([fresh.id])
    done = await SigningSession.get(id=fresh.id)
    assert done.status == "completed", done.failure_reason
    VerifyKey(bytes(setup.key_set.group_public_key)).verify(b"fresh pair", bytes(done.signature))


async def test_the_sweep_finds_round_two_sessions_whose_wake_up_was_lost(client, worker, tmp_path, frozen_clock):
    setup = await _stocked_signers(client, worker, tmp_path)
    # Given a session in round 2 whose wake-up never arrived, and signer 1 that did sign
    session = await request_signature(setup, b"lost")
    async with unit_of_work():
        await service_signer.sign_sessions(participant=1, share_key=signer_key(1), session_ids=[str(session.id)])
    # Then the sweep leaves it alone at first, then names signer 2 only
    assert await sessions.lost_wakeups() == {}
    frozen_clock.advance(timedelta(seconds=sessions.LOST_WAKEUP_SECONDS + 1))
    assert await sessions.lost_wakeups() == {2: [str(session.id)]}
    assert await sessions.schemes_in_use() == [ED25519_SCHEME]


async def test_a_taproot_key_set_signs_with_stocked_commitments(client, worker, tmp_path):
    from threshold.scheme import TAPROOT_SCHEME
    from threshold.taproot import output_key, verify_bip340

    # Given a Taproot key set and both signers' Taproot stocks filled
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(TAPROOT_SCHEME,))
    await worker.drain()
    await asyncio.to_thread(worker.stop)
    for participant in (1, 2):
        async with unit_of_work():
            await service_signer.refill_nonces(participant=participant, share_key=signer_key(participant),
                                               scheme=TAPROOT_SCHEME)
    # When a key-path spend is signed with them
    message = bytes(range(32))
    session = await request_signature(setup, message, scheme=TAPROOT_SCHEME, merkle_root=b"")
    assert session.status == "round2"
    await _sign_all([session.id])
    # Then the BIP-340 signature verifies for the output key
    done = await SigningSession.get(id=session.id)
    assert done.status == "completed", done.failure_reason
    tweaked, _ = output_key(bytes(setup.key_set.group_public_key), b"")
    assert verify_bip340(tweaked, message, bytes(done.signature))
    # And so does one for the internal key (no merkle root)
    plain = await request_signature(setup, b"internal", scheme=TAPROOT_SCHEME)
    await _sign_all([plain.id])
    done = await SigningSession.get(id=plain.id)
    assert done.status == "completed" and verify_bip340(bytes(setup.key_set.group_public_key)[1:], b"internal",
                                                        bytes(done.signature))


async def test_two_deliveries_of_one_wake_up_at_once_sign_once_and_fail_nothing(client, worker, tmp_path):
    setup = await _stocked_signers(client, worker, tmp_path)
    session = await request_signature(setup, b"twice at once")

    async def deliver() -> int:
        async with unit_of_work():
            return await service_signer.sign_sessions(participant=1, share_key=signer_key(1),
                                                      session_ids=[str(session.id)])

    # When signer 1 gets the same wake-up twice at the same time
    stored = await asyncio.gather(deliver(), deliver())
    # Then one share is stored, the session still waits for signer 2, and then completes
    assert sorted(stored) == [0, 1]
    assert (await SigningSession.get(id=session.id)).status == "round2"
    assert await SigningShare.filter(session_id=session.id, participant=1).count() == 1
    await _sign_all([session.id])
    assert (await SigningSession.get(id=session.id)).status == "completed"


async def _session_aggregated_by(setup, participant: int) -> SigningSession:
    """A round-2 session whose aggregator (sessions.aggregator_of: by the session's id) is
    ``participant``; the others requested on the way stay in round 2, untouched."""
    for attempt in range(40):
        session = await request_signature(setup, f"aggregated by {participant}, {attempt}".encode())
        if sessions.aggregator_of(session.id, session.participants) == participant:
            return session
    raise AssertionError("no session of that aggregator in 40 requests")


def _queued_wakeups(redis_client, participant: int) -> list[str]:
    """The session ids of the sign_sessions wake-ups waiting on signer ``participant``'s queue."""
    from tests.support.environment import TEST_NAMESPACE

    woken = []
    for body in redis_client.hvals(f"{TEST_NAMESPACE}:signer_{participant}.msgs"):
        message = json.loads(body)
        if message["actor_name"] == f"signer_{participant}.{sessions.SIGN_SESSIONS}":
            woken += message["args"][0]
    return woken


async def test_the_later_signer_leaves_a_session_to_its_aggregator_and_wakes_it(client, worker, tmp_path,
                                                                                redis_client, frozen_clock):
    setup = await _stocked_signers(client, worker, tmp_path)
    # Given a session that signer 1 aggregates
    session = await _session_aggregated_by(setup, 1)
    # When signer 1 stores its share first and signer 2 the last one
    for participant in (1, 2):
        async with unit_of_work():
            assert await service_signer.sign_sessions(participant=participant, share_key=signer_key(participant),
                                                      session_ids=[str(session.id)]) == 1
    # Then signer 2 leaves it in round 2 with both shares, and wakes signer 1 for it
    assert (await SigningSession.get(id=session.id)).status == "round2"
    assert await SigningShare.filter(session_id=session.id).count() == 2
    assert str(session.id) in _queued_wakeups(redis_client, 1)
    # And were that wake-up lost, the sweep names signer 1 for it, and only signer 1
    frozen_clock.advance(timedelta(seconds=sessions.LOST_WAKEUP_SECONDS + 1))
    lost = await sessions.lost_wakeups()
    assert str(session.id) in lost[1] and str(session.id) not in lost.get(2, [])
    # When signer 1 handles the wake-up
    async with unit_of_work():
        assert await service_signer.sign_sessions(participant=1, share_key=signer_key(1),
                                                  session_ids=[str(session.id)]) == 0
    # Then it completes the session with a signature that verifies, and the sweep is done with it
    done = await SigningSession.get(id=session.id)
    assert done.status == "completed", done.failure_reason
    VerifyKey(bytes(setup.key_set.group_public_key)).verify(bytes(done.message), bytes(done.signature))
    assert str(session.id) not in [i for ids in (await sessions.lost_wakeups()).values() for i in ids]


async def test_the_aggregator_that_stores_the_last_share_completes_the_session_at_once(client, worker, tmp_path):
    setup = await _stocked_signers(client, worker, tmp_path)
    # Given a session that signer 2 aggregates, and signer 1 that signed it first
    session = await _session_aggregated_by(setup, 2)
    async with unit_of_work():
        await service_signer.sign_sessions(participant=1, share_key=signer_key(1), session_ids=[str(session.id)])
    # When signer 2 stores the last share
    async with unit_of_work():
        await service_signer.sign_sessions(participant=2, share_key=signer_key(2), session_ids=[str(session.id)])
    # Then the session is complete in that same transaction
    assert (await SigningSession.get(id=session.id)).status == "completed"
