"""The co-signer API: parts (register, read, commit), protocol messages, bad input, policy."""

from __future__ import annotations

import base64
import json
import uuid

from nacl.public import PrivateKey
from nacl.signing import SigningKey

from client.cosigner import CoSigner, Credentials, ShareStore, StepReport
from domain.signing import sessions
from models.audit import AuditEntry
from models.cosigner import CosignerPart
from models.keys import DkgPackage, KeySet
from models.sessions import SigningCommitment, SigningSession, SigningShare
from models.users import User
from tests.support.approvals import make_owner
from tests.support.callers import Caller, make_caller
from tests.support.client import BASE_URL, AsgiTransport
from tests.support.mail import queued_emails
from tests.support.signing import (
    FAST_KDF,
    PASSPHRASE,
    cosigner_for,
    create_vault,
    designated_signer,
    ready_vault,
    request_signature,
    settle,
    status_is,
)
from threshold import dkg, frost
from threshold.cosigner_part import build_config, decrypt_key_package

#: Not on the curve: y = 2 has no x on edwards25519.
OFF_CURVE = (2).to_bytes(32, "little").hex()
#: A small-order point (order 4): on the curve, outside the prime-order subgroup.
SMALL_ORDER = bytes.fromhex("0000000000000000000000000000000000000000000000000000000000000080").hex()


async def test_part_endpoints_return_the_registered_and_committed_part(client, worker, tmp_path):
    # Given a key generated with a headless co-signer authenticated as an API user
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    part = await CosignerPart.get(key_set_id=setup.key_set.id)
    # When the co-signer reads its part
    _, response = await client.get(f"/api/v1/co-signer/part/{part.id}", headers=setup.cosigner_user.headers())
    # Then it gets config, device_id (its API user id: the co-signer instance) and workspace_id
    assert response.status == 200
    body = response.json
    assert body["workspace_id"] == setup.owner.workspace_id
    assert body["device_id"] == setup.cosigner_user.user_id
    assert body["intent_id"] == str(setup.key_set.id) and body["status"] == "committed"
    config = json.loads(body["config"])
    assert config["scheme"] == "FROST-ED25519-SHA512-v1" and config["participant"] == 3
    assert config["group_public_key"] == bytes(setup.key_set.group_public_key).hex()
    # And the encrypted part opens only with the co-signer's passphrase, to its key package
    assert decrypt_key_package(config["encrypted_key_package"], PASSPHRASE) == \
        setup.cosigner.key_package(str(setup.key_set.id))
    # And registering it again is the same part, a different config is refused, committing again is a no-op
    _, again = await client.post("/api/v1/co-signer/part", headers=setup.cosigner_user.headers(),
                                 json={"config": body["config"], "intent_id": body["intent_id"]})
    assert again.status == 201 and again.json["id"] == str(part.id)
    _, other = await client.post("/api/v1/co-signer/part", headers=setup.cosigner_user.headers(),
                                 json={"config": body["config"].replace('"version":1', '"version":1 '),
                                       "intent_id": body["intent_id"]})
    assert other.status == 409 and other.json["code"] == "COSIGNER_PART_EXISTS"
    _, committed = await client.post(f"/api/v1/co-signer/part/{part.id}/commit", headers=setup.cosigner_user.headers())
    assert committed.status == 200 and committed.json["status"] == "committed"
    # And every read of the part (key material) is audited and announced to the owner and the administrators
    reads = await AuditEntry.filter(action="cosigner_part.read", object_id=str(part.id)).order_by("created_at")
    assert [str(r.actor_id) for r in reads] == [setup.cosigner_user.user_id]
    assert reads[0].details["key_set_id"] == str(setup.key_set.id)
    _, by_owner = await client.get(f"/api/v1/co-signer/part/{part.id}", headers=setup.owner.headers())
    assert by_owner.status == 200
    owner_read = await AuditEntry.get(action="cosigner_part.read", actor_id=setup.owner.user_id)
    assert owner_read.actor_type == "device" and owner_read.details["device_id"] == setup.owner.device_id
    owner_email = (await User.get(id=setup.owner.user_id)).email
    notices = [e for e in await queued_emails(owner_email) if e.subject == "A co-signer part was read"]
    assert len(notices) == 2 and str(part.id) in notices[1].body
    # And another signer of the workspace cannot see it (404, like a missing part)
    stranger = await make_caller(role="SIGNER", workspace_id=setup.owner.workspace_id)
    _, hidden = await client.get(f"/api/v1/co-signer/part/{part.id}", headers=stranger.headers())
    _, missing = await client.get(f"/api/v1/co-signer/part/{uuid.uuid4()}", headers=stranger.headers())
    assert hidden.status == missing.status == 404 and hidden.json["code"] == missing.json["code"] == "COSIGNER_PART_NOT_FOUND"


async def test_a_part_that_does_not_match_the_key_generation_is_refused(client, worker, tmp_path):
    owner = await make_owner()
    cosigner_user = await designated_signer(owner.workspace_id)
    cosigner = cosigner_for(client, cosigner_user, tmp_path / "cosigner")
    vault = await create_vault(owner.workspace_id)
    key_set = await KeySet.get(vault_id=vault.id)
    # Given the key generation reached finalize (the co-signer sent rounds 1 and 2 only)
    await settle(worker, until=lambda: _has_round1_from_signers(key_set.id))
    await cosigner.handle_key_generation(await _view(client, cosigner_user, key_set.id), _report())
    await settle(worker, until=status_is(vault, "round2"))
    await cosigner.handle_key_generation(await _view(client, cosigner_user, key_set.id), _report())
    await settle(worker, until=status_is(vault, "finalize"))
    # A participant-3 key package of some other key
    stranger_share = frost.trusted_dealer_key_packages(3, 2)[0][3]
    headers = cosigner_user.headers()
    # When the config names another key, is malformed, or answers an unknown intent
    wrong = build_config(key_set_id=key_set.id, key_package=stranger_share, min_signers=2, max_signers=3,
                         encrypted_key_package=cosigner.store.encrypt_key_package(stranger_share))
    _, mismatch = await client.post("/api/v1/co-signer/part", headers=headers,
                                    json={"config": wrong, "intent_id": str(key_set.id)})
    _, malformed = await client.post("/api/v1/co-signer/part", headers=headers,
                                     json={"config": "{not json", "intent_id": str(key_set.id)})
    _, unknown = await client.post("/api/v1/co-signer/part", headers=headers,
                                   json={"config": wrong, "intent_id": str(uuid.uuid4())})
    # Then each is refused with its code and nothing is stored
    assert mismatch.status == 400 and mismatch.json["code"] == "COSIGNER_PART_MISMATCH"
    assert malformed.status == 400 and malformed.json["code"] == "INVALID_COSIGNER_CONFIG"
    assert unknown.status == 404 and unknown.json["code"] == "INTENT_NOT_FOUND"
    assert await CosignerPart.all().count() == 0
    # And the honest co-signer still completes the key generation
    await settle(worker, cosigner, until=status_is(vault, "ready", "failed"))
    assert (await KeySet.get(id=key_set.id)).status == "ready"


async def _has_round1_from_signers(key_set_id) -> bool:
    return await DkgPackage.filter(key_set_id=key_set_id, round=1).count() == 2


async def _view(client, caller: Caller, key_set_id) -> dict:
    _, response = await client.get(f"/api/v1/co-signer/key-generations/{key_set_id}", headers=caller.headers())
    assert response.status == 200, response.json
    return response.json


def _report() -> StepReport:
    return StepReport()


async def test_malformed_off_curve_commitments_and_a_bad_proof_are_refused_with_nothing_stored(client, worker, tmp_path):
    owner = await make_owner()
    cosigner_user = await designated_signer(owner.workspace_id)
    vault = await create_vault(owner.workspace_id)
    key_set = await KeySet.get(vault_id=vault.id)
    _, package = dkg.round1(3, 2, 3, bytes(key_set.context))
    transport = "09" * 32
    url = f"/api/v1/co-signer/key-generations/{key_set.id}/round1"
    cases = {
        "off-curve": ({**package.to_dict(), "commitments": [OFF_CURVE, package.to_dict()["commitments"][1]]},
                      "INVALID_DKG_PACKAGE"),
        "small order": ({**package.to_dict(), "commitments": [package.to_dict()["commitments"][0], SMALL_ORDER]},
                        "INVALID_DKG_PACKAGE"),
        "scalar >= L": ({**package.to_dict(), "proof_mu": (frost.L + 1).to_bytes(32, "little").hex()},
                        "INVALID_DKG_PACKAGE"),
        "bad proof": ({**package.to_dict(), "proof_mu": frost.scalar_from_int(7).hex()}, "INVALID_PROOF_OF_KNOWLEDGE"),
        "wrong sender": ({**package.to_dict(), "sender": 1}, "INVALID_DKG_PACKAGE"),
    }
    for name, (body, code) in cases.items():
        _, response = await client.post(url, headers=cosigner_user.headers(),
                                        json={"package": body, "transport_public_key": transport})
        assert response.status == 400 and response.json["code"] == code, name
    _, low_order = await client.post(url, headers=cosigner_user.headers(),
                                     json={"package": package.to_dict(), "transport_public_key": "00" * 32})
    assert low_order.status == 400 and low_order.json["code"] == "INVALID_TRANSPORT_KEY"
    # Nothing partial: no package from participant 3 and the co-signer seat is still free
    assert not await DkgPackage.exists(key_set_id=key_set.id, sender=3)
    assert (await KeySet.get(id=key_set.id)).cosigner_user_id is None  # type: ignore[attr-defined]


async def test_bad_signing_messages_are_refused_with_a_clear_code(client, worker, tmp_path):
    # Given a signing session of signer 1 and the co-signer
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    session = await request_signature(setup, b"m", participants=[1, 3])
    headers = setup.cosigner_user.headers()
    url = f"/api/v1/co-signer/signing-requests/{session.id}"
    _, listed = await client.get("/api/v1/co-signer/signing-requests", headers=headers)
    assert [item["id"] for item in listed.json["items"]] == [str(session.id)]
    assert listed.json["items"][0]["action"] == "commit"
    # Off-curve and small-order commitments, and a malformed one
    for hiding, binding in ((OFF_CURVE, OFF_CURVE), (SMALL_ORDER, SMALL_ORDER), ("zz", "00")):
        _, bad = await client.post(f"{url}/commitment", headers=headers, json={"hiding": hiding, "binding": binding})
        assert bad.status == 400 and bad.json["code"] == "INVALID_COMMITMENT"
    assert not await SigningCommitment.exists(session_id=session.id, participant=3)
    # A genuine commitment, then a different one for the same session
    key_package = setup.cosigner.key_package(str(setup.key_set.id))
    nonces, commitments = frost.commit(key_package)
    _, ok = await client.post(f"{url}/commitment", headers=headers,
                              json={"hiding": commitments.hiding.hex(), "binding": commitments.binding.hex()})
    assert ok.status == 200
    _, changed = await client.post(f"{url}/commitment", headers=headers,
                                   json={"hiding": commitments.binding.hex(), "binding": commitments.hiding.hex()})
    assert changed.status == 409 and changed.json["code"] == "COMMITMENT_ALREADY_SUBMITTED"

    async def in_round2() -> bool:
        return (await SigningSession.get(id=session.id)).status == "round2"
    await settle(worker, until=in_round2)
    # A scalar out of range, then a valid scalar that is not a correct share
    _, out_of_range = await client.post(f"{url}/share", headers=headers,
                                        json={"share": (frost.L + 5).to_bytes(32, "little").hex()})
    assert out_of_range.status == 400 and out_of_range.json["code"] == "INVALID_SCALAR"
    _, wrong = await client.post(f"{url}/share", headers=headers, json={"share": frost.scalar_from_int(5).hex()})
    assert wrong.status == 400 and wrong.json["code"] == "INVALID_SIGNATURE_SHARE"
    assert wrong.json["details"]["participant"] == 3
    assert not await SigningShare.exists(session_id=session.id, participant=3)
    # The correct share completes the session
    _, view = await client.get(url, headers=headers)
    commitment_list = [frost.SigningCommitments(c["participant"], bytes.fromhex(c["hiding"]), bytes.fromhex(c["binding"]))
                       for c in view.json["commitments"]]
    share = frost.sign(key_package, nonces, b"m", commitment_list)
    _, good = await client.post(f"{url}/share", headers=headers, json={"share": share.share.hex()})
    assert good.status == 200
    signature = await sessions.wait_for_signature(workspace_id=setup.workspace_id, session_id=session.id)
    assert frost.verify_signature(bytes(setup.key_set.group_public_key), b"m", signature)
    # A session of the workspace that is not the caller's is 404
    stranger = await make_caller(role="SIGNER", workspace_id=setup.owner.workspace_id)
    _, hidden = await client.get(url, headers=stranger.headers())
    assert hidden.status == 404 and hidden.json["code"] == "SIGNING_REQUEST_NOT_FOUND"


async def test_a_paired_device_can_be_the_cosigner(client, worker, tmp_path):
    owner = await make_owner()
    signer = await make_caller(role="SIGNER", workspace_id=owner.workspace_id)
    # Given a device paired by the signer and confirmed by the owner
    _, invitation = await client.post("/api/v2/auth/devices/pairing/initiate", headers=signer.headers(workspace=None),
                                      json={"tenant_uuid": owner.workspace_id})
    device_key = SigningKey.generate()
    _, device = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": invitation.json["pairing_token"], "name": "co-signer box",
        "public_key": base64.b64encode(bytes(device_key.verify_key)).decode()})
    _, confirmed = await client.post(f"/api/v2/auth/devices/{device.json['device_id']}/confirm", headers=owner.headers(),
                                     json={"fingerprint": device.json["fingerprint"]})
    assert confirmed.status == 200
    # And designated by the owner as the co-signer
    _, designated = await client.put("/api/v1/co-signer/designation", headers=owner.headers(),
                                     json={"device_id": device.json["device_id"]})
    assert designated.status == 200 and designated.json["device_id"] == device.json["device_id"]
    # When the co-signer runs authenticated as that device
    credentials = Credentials(base_url=BASE_URL, workspace_id=owner.workspace_id,
                              client_id=device.json["device_id"], client_type="device", signing_key=device_key)
    cosigner = CoSigner(AsgiTransport(client), credentials=credentials,
                        store=ShareStore(tmp_path / "device", PASSPHRASE, params=FAST_KDF))
    setup = await ready_vault(client, worker, tmp_path, owner=owner, cosigner=cosigner, cosigner_user=signer,
                              real_dkg=True)  # the device takes the seat with its round 1
    # Then the part belongs to the device, and the signer's own API key does not hold the seat
    part = await CosignerPart.get(key_set_id=setup.key_set.id)
    assert str(part.device_id) == device.json["device_id"]  # type: ignore[attr-defined]
    _, hidden = await client.get(f"/api/v1/co-signer/key-generations/{setup.key_set.id}", headers=signer.headers())
    assert hidden.status == 404
    _, seen = await client.get(f"/api/v1/co-signer/part/{part.id}", headers=owner.headers())
    assert seen.json["device_id"] == device.json["device_id"]


async def test_the_signing_policy_is_read_by_members_and_set_by_the_owner(client):
    owner = await make_owner()
    admin = await make_caller(role="ADMIN", workspace_id=owner.workspace_id)
    _, initial = await client.get("/api/v1/co-signer/policy", headers=admin.headers())
    assert initial.status == 200 and initial.json["cosigner_required"] is False
    _, denied = await client.put("/api/v1/co-signer/policy", headers=admin.headers(), json={"cosigner_required": True})
    assert denied.status == 403
    _, invalid = await client.put("/api/v1/co-signer/policy", headers=owner.headers(), json={"cosigner_required": "yes"})
    assert invalid.status == 400
    _, changed = await client.put("/api/v1/co-signer/policy", headers=owner.headers(), json={"cosigner_required": True})
    assert changed.status == 200 and changed.json["cosigner_required"] is True
    _, read = await client.get("/api/v1/co-signer/policy", headers=admin.headers())
    assert read.json["cosigner_required"] is True


async def test_only_the_owner_designates_the_cosigner_and_only_the_designee_takes_a_seat(client):
    # Given a workspace's owner, an ADMIN API user, two SIGNER API users, an EDITOR, and a vault's
    # key generation waiting in round 1
    owner = await make_owner()
    admin = await make_caller(role="ADMIN", workspace_id=owner.workspace_id)
    chosen = await make_caller(role="SIGNER", workspace_id=owner.workspace_id)
    other = await make_caller(role="SIGNER", workspace_id=owner.workspace_id)
    editor = await make_caller(role="EDITOR", workspace_id=owner.workspace_id)
    vault = await create_vault(owner.workspace_id)
    key_set = await KeySet.get(vault_id=vault.id)
    path = "/api/v1/co-signer/designation"
    # Then without a designation nobody sees it, and nobody takes its seat by sending round 1 first
    _, none = await client.get(path, headers=admin.headers())
    assert none.status == 404 and none.json["code"] == "COSIGNER_NOT_DESIGNATED"
    for signer in (chosen, other):
        _, listed = await client.get("/api/v1/co-signer/key-generations", headers=signer.headers())
        assert listed.json["items"] == []
        assert (await _round1(client, signer, key_set)).status == 404
    # When the admin or a signer tries to designate one, it is refused
    for caller in (admin, chosen):
        _, denied = await client.put(path, headers=caller.headers(), json={"user_id": chosen.user_id})
        assert denied.status == 403 and denied.json["details"]["permission"] == "MANAGE_SIGNING_POLICY"
    # And the owner cannot designate a member who may not sign, nor a person without naming a device
    _, cannot_sign = await client.put(path, headers=owner.headers(), json={"user_id": editor.user_id})
    _, a_person = await client.put(path, headers=owner.headers(), json={"user_id": owner.user_id})
    assert cannot_sign.status == a_person.status == 400
    assert cannot_sign.json["code"] == a_person.json["code"] == "COSIGNER_NOT_ELIGIBLE"
    # When the owner designates one signer
    _, designated = await client.put(path, headers=owner.headers(), json={"user_id": chosen.user_id})
    assert designated.status == 200, designated.json
    assert (designated.json["user_id"], designated.json["device_id"]) == (chosen.user_id, None)
    assert designated.json["designated_by"] == owner.user_id
    # Then it is audited and announced, and only the designee sees the key generation and takes the seat
    entry = await AuditEntry.get(action="cosigner.designated")
    assert str(entry.actor_id) == owner.user_id and entry.details["user_id"] == chosen.user_id
    owner_email = (await User.get(id=owner.user_id)).email
    assert "The co-signer was designated" in [e.subject for e in await queued_emails(owner_email)]
    assert (await _round1(client, other, key_set)).status == 404
    taken = await _round1(client, chosen, key_set)
    assert taken.status == 200, taken.json
    assert str((await KeySet.get(id=key_set.id)).cosigner_user_id) == chosen.user_id  # type: ignore[attr-defined]
    # And designating another later leaves the seated key set with its co-signer
    _, changed = await client.put(path, headers=owner.headers(), json={"user_id": other.user_id})
    assert changed.status == 200
    _, still = await client.get(f"/api/v1/co-signer/key-generations/{key_set.id}", headers=chosen.headers())
    _, hidden = await client.get(f"/api/v1/co-signer/key-generations/{key_set.id}", headers=other.headers())
    assert (still.status, hidden.status) == (200, 404)
    (redesignated,) = [e for e in await AuditEntry.filter(action="cosigner.designated")
                       if e.details["user_id"] == other.user_id]
    assert redesignated.details["previous"]["user_id"] == chosen.user_id


async def _round1(client, signer: Caller, key_set: KeySet):
    """The co-signer's round 1 for ``key_set``: a valid package and transport key."""
    _, package = dkg.round1(3, 2, 3, bytes(key_set.context))
    _, response = await client.post(f"/api/v1/co-signer/key-generations/{key_set.id}/round1",
                                    headers=signer.headers(), json={
                                        "package": package.to_dict(),
                                        "transport_public_key": bytes(PrivateKey.generate().public_key).hex()})
    return response
