"""Threshold ECDSA signing sessions: the key set from the 2-of-3 DKG, presignatures made ahead by
the two signers (through the queue, as their processes do) and kept in the single-use stock, a
session taking exactly one, and every reuse refused (reuse would have revealed the key)."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from coincurve import PrivateKey
from eth_keys import keys as eth_keys
from nacl.public import Box as NaclBox
from nacl.public import PrivateKey as RunKey
from nacl.public import PublicKey

from core import sealing
from core.settings import Settings, SettingsError, get_settings
from core.unit_of_work import unit_of_work
from domain.errors import ValidationFailed
from domain.networks.evm import address_of_key
from domain.signing import presignatures, service_signer, sessions, stock
from domain.signing.signer_keys import signer_key
from models.sessions import SigningPolicy, SigningSession, SigningShare
from models.stock import StockItem
from tests.support.callers import make_caller
from tests.support.signing import ready_vault, request_signature, settle
from tests.support.wallets import Api
from threshold import ecdsa
from threshold.scheme import ECDSA_SCHEME
from threshold.secp256k1 import N


async def _ecdsa_vault(client, worker, tmp_path):
    """A ready ECDSA key set whose first batch of presignatures is made (no run going on)."""
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ECDSA_SCHEME,))
    async with unit_of_work():  # what a first signing session asks for
        await presignatures.ensure_stock(setup.key_set)

    async def stocked() -> bool:
        return await presignatures.available(setup.key_set.id) >= get_settings().ecdsa_presignature_batch
    await settle(worker, until=stocked, timeout=90)
    return setup


def _finished(session: SigningSession):
    async def check() -> bool:
        return (await SigningSession.get(id=session.id)).status in ("completed", "failed")
    return check


def _digest(text: str) -> bytes:
    return hashlib.sha3_256(text.encode()).digest()


async def test_an_ecdsa_key_set_signs_a_digest_that_recovers_to_its_ethereum_address(client, worker, tmp_path):
    # Given a vault whose threshold ECDSA key set came from the 2-of-3 DKG, and presignatures made
    # by signers 1 and 2 through their queues
    setup = await _ecdsa_vault(client, worker, tmp_path)
    group_key = bytes(setup.key_set.group_public_key)
    ready_before = await presignatures.available(setup.key_set.id)
    # When a digest is signed
    digest = _digest("an EIP-1559 signing hash")
    session = await request_signature(setup, digest, scheme=ECDSA_SCHEME)
    assert session.status == "round2" and session.participants == [1, 2]
    await settle(worker, until=_finished(session))
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id, timeout=1)
    # Then it is a plain ECDSA signature (low s) recovering to the vault's Ethereum address
    assert ecdsa.verify(group_key, digest, signature)
    recovery = ecdsa.recovery_id(group_key, digest, signature)
    recovered = eth_keys.Signature(signature + bytes([recovery])).recover_public_key_from_msg_hash(digest)
    assert recovered.to_checksum_address() == address_of_key(group_key)
    # And exactly one presignature (one part per signer, one R) was taken, by that session, and used
    parts = await StockItem.filter(session_id=session.id).order_by("holder")
    assert [(p.holder, p.state, p.sealed) for p in parts] == [("1", "used", None), ("2", "used", None)]
    assert parts[0].public == parts[1].public
    assert ready_before == get_settings().ecdsa_presignature_batch  # one top-up, of the configured size
    # And the stock is topped up again
    async def topped_up() -> bool:
        return await presignatures.available(setup.key_set.id) >= presignatures.LOW_WATER
    await settle(worker, until=topped_up, timeout=60)


async def test_a_presignature_is_never_used_twice_and_reuse_would_have_revealed_the_key(client, worker, tmp_path):
    # Given a stocked ECDSA key set
    setup = await _ecdsa_vault(client, worker, tmp_path)
    group_key = bytes(setup.key_set.group_public_key)
    # And a copy of one ready item's sealed parts, as someone replaying the stock would hold them
    # And a copy of every sealed part, as someone replaying the stock would hold them
    copied = {(int(p.holder), bytes(p.public)): bytes(p.sealed)
              for p in await StockItem.filter(key_set_id=setup.key_set.id, state="available")}
    # When a session signs with one presignature through the service
    first = await request_signature(setup, _digest("first"), scheme=ECDSA_SCHEME)
    parts = await StockItem.filter(session_id=first.id).order_by("holder")
    copies = {int(p.holder): copied[(int(p.holder), bytes(p.public))] for p in parts}
    await settle(worker, until=_finished(first))
    first_signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=first.id)
    # Then a signer asked again (a redelivered command, a retry after a crash) refuses: its part is gone
    async with unit_of_work():
        session = await SigningSession.get(id=first.id)
        session.status = "round2"  # as if the session still waited for shares
        await session.save(update_fields=["status"])
    for participant in (1, 2):
        with pytest.raises(service_signer.NonceAlreadyUsed):
            async with unit_of_work():
                await service_signer.sign(participant=participant, share_key=signer_key(participant),
                                          session_id=first.id)
        with pytest.raises(stock.StockItemUsed):
            async with unit_of_work():
                await stock.use(session_id=first.id, holder=str(participant), kind=presignatures.KIND,
                                share_key=signer_key(participant))
    # And the stock never hands the taken presignature to another session
    second = await request_signature(setup, _digest("second"), scheme=ECDSA_SCHEME)
    assert {p.public for p in await StockItem.filter(session_id=second.id)} != {parts[0].public}
    # And using the copied parts for a second digest (what the stock prevents) gives the private key
    digest = _digest("second, with the same presignature")
    parties = []
    for participant, sealed in copies.items():
        presignature = ecdsa.Presignature.from_dict(json.loads(sealing.unseal(sealed, key=signer_key(participant))))
        share = await service_signer._ecdsa_key_share(participant, signer_key(participant), setup.key_set.id)
        parties.append(ecdsa.sign(participant, (1, 2), share, presignature, digest))
    reused = ecdsa.run_locally(parties)[1].to_bytes()
    key = _key_from_nonce_reuse(_digest("first"), first_signature, digest, reused)
    assert key is not None and PrivateKey(key.to_bytes(32, "big")).public_key.format() == group_key


def _key_from_nonce_reuse(z1: bytes, sig1: bytes, z2: bytes, sig2: bytes) -> int | None:
    """The private key from two ECDSA signatures with one nonce (s may have been negated)."""
    r = int.from_bytes(sig1[:32], "big")
    assert r == int.from_bytes(sig2[:32], "big"), "the same presignature gives the same r"
    s1, s2 = int.from_bytes(sig1[32:], "big"), int.from_bytes(sig2[32:], "big")
    h1, h2 = int.from_bytes(z1, "big"), int.from_bytes(z2, "big")
    for a in (s1, N - s1):
        for b in (s2, N - s2):
            if (a - b) % N == 0:
                continue
            k = (h1 - h2) * pow(a - b, -1, N) % N
            x = (a * k - h1) * pow(r, -1, N) % N
            if 0 < x < N and ecdsa.verify(PrivateKey(x.to_bytes(32, "big")).public_key.format(), z1, sig1):
                return x
    return None


async def test_a_session_waits_for_the_next_presignature_when_the_stock_is_empty(client, worker, tmp_path):
    # Given an ECDSA key set whose stock is empty (every ready item discarded)
    setup = await _ecdsa_vault(client, worker, tmp_path)
    async with unit_of_work():
        await stock.discard(kind=presignatures.KIND, key_set_id=setup.key_set.id)
    # When a signature is requested
    session = await request_signature(setup, _digest("waits"), scheme=ECDSA_SCHEME)
    # Then it waits in round1 until the signers made one, then completes
    assert session.status == "round1"
    await settle(worker, until=_finished(session), timeout=60)
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id)
    assert ecdsa.verify(bytes(setup.key_set.group_public_key), _digest("waits"), signature)


async def test_ecdsa_sessions_refuse_what_the_scheme_cannot_do(client, worker, tmp_path):
    setup = await _ecdsa_vault(client, worker, tmp_path)
    # A message that is not a 32-byte digest
    with pytest.raises(ValidationFailed) as refused:
        await request_signature(setup, b"not a digest", scheme=ECDSA_SCHEME)
    assert refused.value.code == "INVALID_MESSAGE"
    # All three participants (threshold ECDSA signs with exactly one pair)
    with pytest.raises(ValidationFailed) as refused:
        await request_signature(setup, _digest("x"), scheme=ECDSA_SCHEME, participants=[1, 2, 3])
    assert refused.value.code == "INVALID_PARTICIPANTS"
    # A policy requiring the co-signer, and a request naming the service signers only
    async with unit_of_work():
        await SigningPolicy.create(workspace_id=setup.workspace_id, cosigner_required=True)
    with pytest.raises(ValidationFailed) as refused:
        await request_signature(setup, _digest("x"), scheme=ECDSA_SCHEME, participants=[1, 2])
    assert refused.value.code == "COSIGNER_REQUIRED"


async def test_a_policy_requiring_the_cosigner_signs_with_a_presignature_made_with_it_on_demand(
        client, worker, tmp_path):
    # Given an ECDSA key set (no presignature of the co-signer's pairs yet) in a workspace whose
    # policy requires the co-signer
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ECDSA_SCHEME,))
    group_key = bytes(setup.key_set.group_public_key)
    async with unit_of_work():
        await SigningPolicy.create(workspace_id=setup.workspace_id, cosigner_required=True)
    # When a digest is signed by default participants
    digest = _digest("an EIP-1559 signing hash, co-signed")
    session = await request_signature(setup, digest, scheme=ECDSA_SCHEME)
    # Then the session is of the pair {1, 3} and waits for a presignature, which the co-signer
    # makes with signer 1 (messages relayed by the API), and signs
    assert session.participants == [1, 3] and session.status == "round1"
    await settle(worker, setup.cosigner, until=_finished(session), timeout=120)
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id, timeout=1)
    assert ecdsa.verify(group_key, digest, signature)
    recovery = ecdsa.recovery_id(group_key, digest, signature)
    recovered = eth_keys.Signature(signature + bytes([recovery])).recover_public_key_from_msg_hash(digest)
    assert recovered.to_checksum_address() == address_of_key(group_key)
    # And one presignature (signer 1's part, the co-signer's record) was taken by it and used
    parts = await StockItem.filter(session_id=session.id).order_by("holder")
    assert [(p.holder, p.state, p.sealed) for p in parts] == [("1", "used", None), ("3", "used", None)]
    assert parts[0].kind == presignatures.kind_of((1, 3)) and parts[0].public == parts[1].public
    # And the co-signer's own part is gone from its disk (its share is recorded instead)
    store = setup.cosigner.store
    assert store.names("presig") == [] and store.exists("signed", str(session.id))
    # And a retry of the co-signer's step sends the recorded share again, harmlessly; a different
    # share for the session is refused: its presignature was used
    await setup.cosigner.step()
    with pytest.raises(Exception) as refused:
        await setup.cosigner.call("POST", f"/api/v1/co-signer/signing-requests/{session.id}/share",
                                  {"share": "11" * 32})
    assert getattr(refused.value, "status", None) == 409
    assert getattr(refused.value, "code", None) == "SHARE_ALREADY_SUBMITTED"


async def test_the_cosigner_makes_presignatures_ahead_with_signer_2_and_never_uses_one_twice(
        client, worker, tmp_path):
    # Given a co-signer that made a presignature with signer 2 ahead of time
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ECDSA_SCHEME,))
    async with unit_of_work():
        await SigningPolicy.create(workspace_id=setup.workspace_id, cosigner_required=True)
    key_package = setup.cosigner.key_package(str(setup.key_set.id))
    big_r = await setup.cosigner.make_presignature(str(setup.key_set.id), 2, key_package)

    async def stocked() -> bool:
        return await presignatures.available(setup.key_set.id, (2, 3)) == 1
    await settle(worker, until=stocked, timeout=60)
    # When the pair {2, 3} is asked for
    digest = _digest("signed by signer 2 and the co-signer")
    session = await request_signature(setup, digest, scheme=ECDSA_SCHEME, participants=[2, 3])
    # Then it takes that presignature at once and completes
    assert session.status == "round2"
    await settle(worker, setup.cosigner, until=_finished(session), timeout=60)
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id, timeout=1)
    assert ecdsa.verify(bytes(setup.key_set.group_public_key), digest, signature)
    assert (await StockItem.filter(session_id=session.id, holder="3").first()).public.hex() == big_r
    # And the stock never hands the co-signer's record out again: a second session of the pair
    # waits for a new presignature (registering the same R again adds nothing)
    async with unit_of_work():
        assert not await presignatures.register_cosigner_part(setup.key_set, (2, 3), bytes.fromhex(big_r))
    second = await request_signature(setup, _digest("another"), scheme=ECDSA_SCHEME, participants=[2, 3])
    assert second.status == "round1"
    # And the service refuses a second use of the co-signer's item of the first session
    with pytest.raises(stock.StockItemUsed):
        async with unit_of_work():
            await stock.use(session_id=session.id, holder="3", kind=presignatures.kind_of((2, 3)), share_key=None)


async def test_a_library_failure_fails_the_session_with_its_reason_and_destroys_the_part(client, worker, tmp_path):
    # Given a stock whose signer 1 parts are not presignatures of this key (a corrupted stock)
    setup = await _ecdsa_vault(client, worker, tmp_path)
    other = ecdsa.run_locally([ecdsa.keygen(n) for n in (1, 2, 3)])
    triples = [ecdsa.run_locally([ecdsa.triple(n, (1, 2)) for n in (1, 2)]) for _ in range(2)]
    foreign = ecdsa.run_locally([ecdsa.presign(n, (1, 2), other[n], triples[0][n], triples[1][n]) for n in (1, 2)])
    await StockItem.filter(key_set_id=setup.key_set.id, holder="1", state="available").update(
        sealed=sealing.seal(json.dumps(foreign[1].to_dict()).encode(), key=signer_key(1)))
    # When a session signs with one of them
    session = await request_signature(setup, _digest("corrupt"), scheme=ECDSA_SCHEME)
    await settle(worker, until=_finished(session))
    # Then the session failed with a clear reason naming signer 1, and no part is left
    failed = await SigningSession.get(id=session.id)
    assert failed.status == "failed" and failed.failed_participant == 1, failed.failure_reason
    assert "another key" in failed.failure_reason
    assert await StockItem.filter(session_id=session.id, holder="1", state="used", sealed=None).exists()
    assert not await SigningShare.filter(session_id=session.id, participant=1).exists()


async def test_a_cosigner_run_is_the_cosigners_alone_and_its_messages_travel_boxed(client, worker, tmp_path):
    # Given an ECDSA key set and its co-signer, which starts a presignature run with signer 1
    setup = await ready_vault(client, worker, tmp_path / "cosigner", schemes=(ECDSA_SCHEME,))
    run_key = RunKey.generate()
    run = await setup.cosigner.call("POST", "/api/v1/co-signer/presignature-runs", {
        "key_set_id": str(setup.key_set.id), "signer": 1, "transport_public_key": bytes(run_key.public_key).hex()})
    path = f"/api/v1/co-signer/presignature-runs/{run['run_id']}/messages"
    # When another API user of the workspace, allowed to sign, reads or writes the run's messages
    other = Api(client, await make_caller(role="SIGNER", workspace_id=setup.owner.workspace_id))
    read = await other.get(path, phase="t0", wait=0)
    written = await other.post(path, {"phase": "t0", "data": base64.b64encode(b"forged").decode()})
    # Then both are the 404 of a missing run, and nothing reached the signer
    assert [status for status, _ in (read, written)] == [404, 404]
    assert read[1]["code"] == "PRESIGNATURE_RUN_NOT_FOUND"
    # And the co-signer's own read gives the signer's run key once the signer took the run; what the
    # signer sends (the first triple messages) is a Box to the co-signer's run key, not the message
    async def signer_started() -> bool:
        answer = await setup.cosigner.call("GET", f"{path}?phase=t0&wait=0")
        signer_started.seen = answer  # type: ignore[attr-defined]
        return bool(answer["signer_transport_public_key"] and answer["messages"])
    await settle(worker, until=signer_started, timeout=30)
    answer = signer_started.seen  # type: ignore[attr-defined]
    box = NaclBox(run_key, PublicKey(bytes.fromhex(answer["signer_transport_public_key"])))
    sealed = base64.b64decode(answer["messages"][0])
    assert len(box.decrypt(sealed)) > 0 and box.decrypt(sealed) not in sealed
    # And a message that is not a Box from the co-signer's run key stops the signer's run: it stores nothing
    await setup.cosigner.call("POST", path, {"phase": "t0", "data": base64.b64encode(b"not a box" * 8).decode()})

    async def nothing_stored() -> bool:
        return await presignatures.available(setup.key_set.id, (1, 3)) == 0 and not await StockItem.filter(
            kind=presignatures.kind_of((1, 3))).exists()
    await settle(worker, until=nothing_stored, timeout=10)
    # And a run with an unusable key is refused before anything starts
    status_bad = None
    try:
        await setup.cosigner.call("POST", "/api/v1/co-signer/presignature-runs", {
            "key_set_id": str(setup.key_set.id), "signer": 1, "transport_public_key": "00" * 32})
    except Exception as exc:  # noqa: BLE001 - the co-signer's ApiError
        status_bad = (getattr(exc, "status", None), getattr(exc, "code", None))
    assert status_bad == (400, "INVALID_TRANSPORT_KEY")


def test_the_presignature_batch_comes_from_the_environment_within_bounds():
    # Given no setting, one of 8, and one of 0
    # Then the default is 4, 8 is taken, and 0 is refused naming the variable
    assert Settings.from_env({}).ecdsa_presignature_batch == 4
    assert Settings.from_env({"ECDSA_PRESIGNATURE_BATCH": "8"}).ecdsa_presignature_batch == 8
    with pytest.raises(SettingsError, match="ECDSA_PRESIGNATURE_BATCH"):
        Settings.from_env({"ECDSA_PRESIGNATURE_BATCH": "0"})
