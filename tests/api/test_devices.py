"""Device pairing: initiate, register the key, owner confirms the fingerprint, device signs in."""

from __future__ import annotations

import base64
import json
import re
from datetime import timedelta

from nacl.signing import SigningKey

from models.auth import Device
from tests.support.approvals import make_owner
from tests.support.callers import Caller, make_caller


async def _owner_and_member(client) -> tuple[Caller, Caller]:
    owner = await make_owner()
    signer = await make_caller(role="SIGNER", workspace_id=owner.workspace_id)
    return owner, signer


async def _initiate(client, caller: Caller) -> dict:
    _, response = await client.post("/api/v2/auth/devices/pairing/initiate", headers=caller.headers(workspace=None),
                                    json={"tenant_uuid": caller.workspace_id})
    assert response.status == 200, response.json
    return response.json


async def test_full_pairing_flow_then_device_gets_a_token(client, frozen_clock):
    owner, signer = await _owner_and_member(client)
    # Given a signer starts pairing
    invitation = await _initiate(client, signer)
    assert invitation["pairing_token"] and isinstance(invitation["expires_at"], int)
    assert invitation["expires_at"] == int((frozen_clock.now() + timedelta(minutes=5)).timestamp() * 1000)
    qr = json.loads(invitation["qr_data"])
    assert qr["pairing_token"] == invitation["pairing_token"] and qr["tenant_uuid"] == signer.workspace_id
    # When the device registers its public key with the token
    device_key = SigningKey.generate()
    _, registered = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": invitation["pairing_token"], "name": "Alice's phone",
        "public_key": base64.b64encode(bytes(device_key.verify_key)).decode()})
    assert registered.status == 201
    device = registered.json
    assert device["status"] == "pending_confirmation"
    assert re.fullmatch(r"([0-9A-F]{4} ){7}[0-9A-F]{4}", device["fingerprint"])
    # Then it cannot sign in before the owner confirms
    device_caller = Caller(user_id=device["device_id"], signing_key=device_key, workspace_id=owner.workspace_id)
    _, early = await client.post("/api/v2/auth/access-token",
                                 json=device_caller.signed_request(client_type="device"))
    assert early.status == 401
    # When the owner compares and confirms the fingerprint
    _, confirmed = await client.post(f"/api/v2/auth/devices/{device['device_id']}/confirm",
                                     headers=owner.headers(), json={"fingerprint": device["fingerprint"].lower()})
    assert confirmed.status == 200 and confirmed.json["status"] == "active"
    # Then the device obtains a token acting for the signer, in the paired workspace only
    _, token = await client.post("/api/v2/auth/access-token", json=device_caller.signed_request(client_type="device"))
    assert token.status == 200
    _, introspection = await client.post("/api/v2/auth/introspect",
                                         headers={"Authorization": f"Bearer {token.json['access_token']}"})
    assert introspection.json["subject_type"] == "device"
    assert introspection.json["subject_uuid"] == signer.user_id
    assert [a["tenant_uuid"] for a in introspection.json["accesses"]] == [signer.workspace_id]


async def test_only_the_owner_confirms_and_fingerprint_must_match(client):
    owner, signer = await _owner_and_member(client)
    invitation = await _initiate(client, signer)
    key = SigningKey.generate()
    _, registered = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": invitation["pairing_token"], "public_key": base64.b64encode(bytes(key.verify_key)).decode()})
    device_id = registered.json["device_id"]
    _, by_signer = await client.post(f"/api/v2/auth/devices/{device_id}/confirm", headers=signer.headers(),
                                     json={"fingerprint": registered.json["fingerprint"]})
    assert by_signer.status == 403
    _, mismatch = await client.post(f"/api/v2/auth/devices/{device_id}/confirm", headers=owner.headers(),
                                    json={"fingerprint": "0000 0000 0000 0000 0000 0000 0000 0000"})
    assert mismatch.status == 400 and mismatch.json["code"] == "DEVICE_FINGERPRINT_MISMATCH"
    assert (await Device.get(id=device_id)).status == "pending_confirmation"


async def test_pairing_token_expires_after_five_minutes_and_is_single_use(client, frozen_clock):
    _, signer = await _owner_and_member(client)
    first = await _initiate(client, signer)
    frozen_clock.advance(minutes=5, seconds=1)
    key = base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()
    _, expired = await client.post("/api/v2/auth/devices/pairing/register",
                                   json={"pairing_token": first["pairing_token"], "public_key": key})
    assert expired.status == 400 and expired.json["code"] == "PAIRING_TOKEN_INVALID"
    second = await _initiate(client, signer)
    _, ok = await client.post("/api/v2/auth/devices/pairing/register",
                              json={"pairing_token": second["pairing_token"], "public_key": key})
    _, again = await client.post("/api/v2/auth/devices/pairing/register",
                                 json={"pairing_token": second["pairing_token"], "public_key": key})
    assert ok.status == 201 and again.status == 409 and again.json["code"] == "PAIRING_TOKEN_USED"


async def test_viewer_cannot_pair_and_foreign_workspace_is_404(client):
    owner = await make_owner()
    viewer = await make_caller(role="VIEWER", workspace_id=owner.workspace_id)
    stranger = await make_caller(role="ADMIN")
    _, response = await client.post("/api/v2/auth/devices/pairing/initiate", headers=viewer.headers(),
                                    json={"tenant_uuid": owner.workspace_id})
    assert response.status == 403
    _, foreign = await client.post("/api/v2/auth/devices/pairing/initiate", headers=stranger.headers(),
                                   json={"tenant_uuid": owner.workspace_id})
    assert foreign.status == 404 and foreign.json["code"] == "WORKSPACE_NOT_FOUND"


async def test_invalid_public_key_is_400(client):
    _, signer = await _owner_and_member(client)
    invitation = await _initiate(client, signer)
    _, response = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": invitation["pairing_token"], "public_key": base64.b64encode(b"\x00" * 32).decode()})
    assert response.status == 400 and response.json["details"]["field"] == "public_key"
