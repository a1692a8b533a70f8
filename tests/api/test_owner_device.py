"""The owner's first device (issue 21.1): from `custody bootstrap` to every owner action over HTTP.

The documented path (docs/users.md, "The owner's first device"): bootstrap issues a one-time owner
enrollment secret; the owner's device registers its key with it over HTTP; the operator compares
the fingerprint with the owner and confirms it with `custody owner confirm-device`; the device
then signs in as `client_type: device` and acts as the owner. The operator's command runs here
in process through the CLI's own parser (tests/custody/test_owner.py runs it with the example
device script against a real socket).
"""

from __future__ import annotations

import argparse
import base64
import uuid
from typing import Any

from nacl.public import PrivateKey
from nacl.signing import SigningKey

from core.unit_of_work import unit_of_work
from custody import owner as owner_cli
from custody.cli import build_parser
from domain.bootstrap import bootstrap
from models.audit import AuditEntry
from models.auth import Device
from models.workspaces import Workspace
from tests.support.approvals import DeviceCaller
from tests.support.callers import Caller
from tests.support.client import AppClient
from tests.support.mail import invitation_token, queued_emails

OWNER_EMAIL = "owner@acme.test"


async def _bootstrap(*, platform_admin: bool = False) -> Any:
    """What `custody bootstrap` does (the same service function, in one unit of work)."""
    async with unit_of_work():
        return await bootstrap(company_name="Acme", company_email="ops@acme.test", workspace_name="Main",
                               network_type="testnet", owner_email=OWNER_EMAIL, platform_admin=platform_admin)


async def _register(client: AppClient, secret: str, name: str = "Owner's phone") -> tuple[SigningKey, dict]:
    key = SigningKey.generate()
    _, registered = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": secret, "name": name, "public_key": base64.b64encode(bytes(key.verify_key)).decode()})
    assert registered.status == 201, registered.json
    return key, registered.json


async def operator(*argv: str, settings: Any) -> Any:
    """`custody owner ...` as the operator types it: parsed by the CLI, run on the service's database."""
    args: argparse.Namespace = build_parser().parse_args(["owner", *argv])
    return await owner_cli.run_command(args, settings)


async def _sign_in(client: AppClient, device: DeviceCaller) -> tuple[int, dict]:
    _, answer = await client.post("/api/v2/auth/access-token", json=device.signed_request())
    if answer.status == 200:
        device.token = answer.json["access_token"]
    return answer.status, answer.json


async def test_from_bootstrap_the_owner_enrolls_a_device_the_operator_confirms_and_acts_as_owner(client, settings):
    # Given a fresh bootstrap: a workspace, its owner (a person without a device) and an API user
    result = await _bootstrap()
    ws = result.workspace_id
    assert result.owner_enrollment_secret.startswith("cwo_")
    # When the owner's device registers its key with the enrollment secret
    key, registered = await _register(client, result.owner_enrollment_secret)
    device = DeviceCaller(device_id=registered["device_id"], person_id=result.owner_id, signing_key=key,
                          workspace_id=ws)
    # Then it waits for confirmation: it cannot sign in, and the secret does not register a second device
    assert registered["status"] == "pending_confirmation" and registered["user_id"] == result.owner_id
    assert (await _sign_in(client, device))[0] == 401
    _, again = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": result.owner_enrollment_secret,
        "public_key": base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()})
    assert again.status == 409 and again.json["code"] == "PAIRING_TOKEN_USED"
    # And the secret is kept only as a hash
    assert result.owner_enrollment_secret not in str(await AuditEntry.all().values_list("details", flat=True))
    # When the operator lists the owner's devices and types a fingerprint the owner did not read
    listed = await operator("devices", "--workspace", ws, settings=settings)
    assert [(d["device_id"], d["status"], d["enrolled"]) for d in listed] == [
        (registered["device_id"], "pending_confirmation", True)]
    wrong = await _refused_operator(settings, "confirm-device", "--workspace", ws, "--device", registered["device_id"],
                                    "--fingerprint", "0000 0000 0000 0000 0000 0000 0000 0000")
    assert wrong == "DEVICE_FINGERPRINT_MISMATCH"
    # When the operator confirms the fingerprint the owner reads out (any case and spacing)
    confirmed = await operator("confirm-device", "--workspace", ws, "--device", registered["device_id"],
                               "--fingerprint", registered["fingerprint"].lower().replace(" ", ""), settings=settings)
    assert confirmed["status"] == "active" and confirmed["revoked_device_ids"] == []
    # Then it is audited as the operator's act and announced to the owner by email
    entry = await AuditEntry.get(action="device.confirmed", object_id=registered["device_id"])
    assert entry.actor_id is None and entry.details["confirmed_by"] == "operator"
    subjects = [e.subject for e in await queued_emails(OWNER_EMAIL)]
    assert "An enrollment for your owner device was issued" in subjects
    assert "A device registered with your owner enrollment" in subjects
    assert "The owner's device was confirmed" in subjects
    # And the device signs in as `client_type: device` and acts as the OWNER
    assert (await _sign_in(client, device))[0] == 200
    _, introspection = await client.post("/api/v2/auth/introspect", headers=device.headers())
    assert introspection.json["subject_type"] == "device" and introspection.json["subject_uuid"] == result.owner_id
    assert introspection.json["accesses"][0]["role"] == "OWNER"
    await _every_owner_action(client, device, api_user_id=result.client_id)


async def _refused_operator(settings: Any, *argv: str) -> str:
    try:
        await operator(*argv, settings=settings)
    except Exception as error:  # noqa: BLE001 - the domain error the command prints
        return getattr(error, "code", type(error).__name__)
    raise AssertionError("the operator's command was not refused")


async def _every_owner_action(client: AppClient, owner: DeviceCaller, *, api_user_id: str) -> None:
    """Confirming a member's device, protected tags, approval settings, the co-signer, the signing
    policy and a backup: each answers as the owner's, over HTTP, from the owner's device."""
    ws = owner.workspace_id
    # A member's device: an invited SIGNER accepts, pairs, and the owner finds and confirms it
    _, invited = await client.post("/api/v1/users", headers=owner.headers(),
                                   json={"email": "signer@acme.test", "role": "SIGNER"})
    assert invited.status == 201, invited.json
    _, accepted = await client.post("/api/v1/users/invitations/accept",
                                    json={"token": await invitation_token("signer@acme.test")})
    assert accepted.json["pairing"]["kind"] == "device"
    _, member_device = await _register(client, accepted.json["pairing"]["pairing_token"], "Signer's phone")
    _, pending = await client.get(f"/api/v2/auth/devices?tenant_uuid={ws}&status=pending_confirmation",
                                  headers=owner.headers())
    assert [d["device_id"] for d in pending.json["devices"]] == [member_device["device_id"]]
    _, confirmed = await client.post(f"/api/v2/auth/devices/{member_device['device_id']}/confirm",
                                     headers=owner.headers(), json={"fingerprint": member_device["fingerprint"]})
    assert confirmed.status == 200 and confirmed.json["status"] == "active"
    # Protected tags
    _, tag = await client.post("/api/v1/tags", headers=owner.headers(), json={"label": "Cold"})
    _, protected = await client.post(f"/api/v1/tags/{tag.json['id']}/protect", headers=owner.headers())
    assert protected.status == 200 and protected.json["is_protected"] is True
    # Approval settings
    _, rule = await client.put(f"/api/v2/admin/tenants/{ws}/quorum/actions/manage_tags", headers=owner.headers(),
                               json={"enabled": True})
    assert rule.status == 200 and rule.json["rule"]["enabled"] is True
    # The co-signer (bootstrap designated its API user) and the signing policy
    _, designation = await client.put("/api/v1/co-signer/designation", headers=owner.headers(),
                                      json={"user_id": api_user_id})
    assert designation.status == 200 and designation.json["user_id"] == api_user_id
    _, policy = await client.put("/api/v1/co-signer/policy", headers=owner.headers(), json={"cosigner_required": True})
    assert policy.status == 200 and policy.json["cosigner_required"] is True
    # A backup of the key shares
    backup_key = base64.b64encode(bytes(PrivateKey.generate().public_key)).decode()
    _, backup = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": backup_key})
    assert backup.status == 202, backup.json


async def test_the_owners_device_is_never_confirmed_with_the_secret_alone(client, settings):
    # Given an owner's device registered with the enrollment secret, and an ADMIN API user
    result = await _bootstrap()
    _, registered = await _register(client, result.owner_enrollment_secret)
    admin = Caller(user_id=result.client_id, signing_key=SigningKey(base64.b64decode(result.private_key)),
                   workspace_id=result.workspace_id)
    await admin.login()
    # When anyone but the operator tries to confirm it over HTTP
    _, by_admin = await client.post(f"/api/v2/auth/devices/{registered['device_id']}/confirm",
                                    headers=admin.headers(), json={"fingerprint": registered["fingerprint"]})
    # Then it is refused and the device stays pending
    assert by_admin.status == 403
    assert (await Device.get(id=registered["device_id"])).status == "pending_confirmation"
    # And a member's ordinary device cannot be confirmed through the operator's command
    refused = await _refused_operator(settings, "confirm-device", "--workspace", result.workspace_id,
                                      "--device", str(uuid.uuid4()), "--fingerprint", registered["fingerprint"])
    assert refused == "DEVICE_NOT_FOUND"


async def test_an_unused_enrollment_expires_and_a_new_one_ends_the_old(client, settings, frozen_clock):
    # Given a bootstrap's enrollment secret
    result = await _bootstrap()
    # When the operator issues another one, the first no longer registers anything
    fresh = await operator("enroll", "--workspace", result.workspace_id, settings=settings)
    assert fresh["not_before"] is None and fresh["owner_id"] == result.owner_id
    _, old = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": result.owner_enrollment_secret,
        "public_key": base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()})
    assert old.status == 400 and old.json["code"] == "PAIRING_TOKEN_INVALID"
    # And 72 hours later the new one has expired too
    frozen_clock.advance(hours=72, seconds=1)
    _, late = await client.post("/api/v2/auth/devices/pairing/register", json={
        "pairing_token": fresh["owner_enrollment_secret"],
        "public_key": base64.b64encode(bytes(SigningKey.generate().verify_key)).decode()})
    assert late.status == 400 and late.json["code"] == "PAIRING_TOKEN_INVALID"


async def _owner_with_device(client: AppClient, settings: Any) -> tuple[Any, DeviceCaller]:
    result = await _bootstrap()
    key, registered = await _register(client, result.owner_enrollment_secret)
    await operator("confirm-device", "--workspace", result.workspace_id, "--device", registered["device_id"],
                   "--fingerprint", registered["fingerprint"], settings=settings)
    device = DeviceCaller(device_id=registered["device_id"], person_id=result.owner_id, signing_key=key,
                          workspace_id=result.workspace_id)
    assert (await _sign_in(client, device))[0] == 200
    return result, device


async def test_a_lost_owner_device_is_recovered_after_an_announced_delay(client, settings, frozen_clock):
    # Given an owner with a confirmed device
    result, lost = await _owner_with_device(client, settings)
    ws = result.workspace_id
    # When the operator starts a recovery (the owner reports the device lost)
    recovery = await operator("enroll", "--workspace", ws, settings=settings)
    # Then it is announced to the owner and the administrators, and confirmable only 48 hours later
    assert recovery["not_before"] is not None
    assert "Recovery of the owner's device started" in [e.subject for e in await queued_emails(OWNER_EMAIL)]
    key, registered = await _register(client, recovery["owner_enrollment_secret"], "New phone")
    too_soon = await _refused_operator(settings, "confirm-device", "--workspace", ws, "--device",
                                       registered["device_id"], "--fingerprint", registered["fingerprint"])
    assert too_soon == "OWNER_RECOVERY_DELAY"
    # When the delay has passed and the operator confirms the new device with the owner
    frozen_clock.advance(hours=48, seconds=1)
    await lost.login()
    confirmed = await operator("confirm-device", "--workspace", ws, "--device", registered["device_id"],
                               "--fingerprint", registered["fingerprint"], settings=settings)
    # Then the old device is revoked (its token and new tokens refused) and the new one is the owner's
    assert confirmed["revoked_device_ids"] == [lost.device_id]
    _, old_token = await client.get("/api/v1/workspace", headers=lost.headers())
    assert old_token.status == 401
    assert (await _sign_in(client, lost))[0] == 401
    found = DeviceCaller(device_id=registered["device_id"], person_id=result.owner_id, signing_key=key,
                         workspace_id=ws)
    assert (await _sign_in(client, found))[0] == 200
    _, workspace = await client.get("/api/v1/workspace", headers=found.headers())
    assert workspace.json["role"] == "OWNER"
    revoked = await AuditEntry.get(action="device.revoked", object_id=lost.device_id)
    assert revoked.details["reason"] == "replaced by the owner's recovered device"


async def test_an_owner_who_did_not_ask_for_a_recovery_cancels_it_from_the_device(client, settings):
    # Given an owner with a confirmed device, and a recovery someone talked the operator into
    result, owner = await _owner_with_device(client, settings)
    recovery = await operator("enroll", "--workspace", result.workspace_id, settings=settings)
    _, intruder = await _register(client, recovery["owner_enrollment_secret"], "Intruder's phone")
    # When the owner cancels it from the device
    _, cancelled = await client.post("/api/v2/auth/devices/owner-enrollment/cancel", headers=owner.headers(),
                                     json={"tenant_uuid": result.workspace_id})
    # Then the intruder's device is revoked and can never be confirmed; the owner's device still works
    assert cancelled.status == 200 and cancelled.json["cancelled"] == 1
    assert (await Device.get(id=intruder["device_id"])).status == "revoked"
    refused = await _refused_operator(settings, "confirm-device", "--workspace", result.workspace_id, "--device",
                                      intruder["device_id"], "--fingerprint", intruder["fingerprint"])
    assert refused == "DEVICE_NOT_PENDING"
    _, still = await client.get("/api/v1/workspace", headers=owner.headers())
    assert still.status == 200
    assert await AuditEntry.filter(action="device.owner_enrollment_cancelled").count() == 1


async def test_the_first_owner_invited_by_platform_staff_enrolls_the_same_way(client, settings):
    # Given a workspace made by platform staff with an owner_email
    result = await _bootstrap(platform_admin=True)
    staff = Caller(user_id=result.client_id, signing_key=SigningKey(base64.b64decode(result.private_key)),
                   workspace_id=result.workspace_id)
    await staff.login()
    company_id = (await Workspace.get(id=result.workspace_id)).company_id  # type: ignore[attr-defined]
    _, created = await client.post(f"/api/v1/company/{company_id}/workspaces", headers=staff.headers(),
                                   json={"name": "Treasury", "network_type": "testnet",
                                         "owner_email": "founder@acme.test"})
    assert created.status == 201, created.json
    # When the invited founder accepts
    _, accepted = await client.post("/api/v1/users/invitations/accept",
                                    json={"token": await invitation_token("founder@acme.test")})
    # Then the answer is an owner enrollment, whose device the operator confirms
    assert accepted.status == 200 and accepted.json["role"] == "OWNER"
    assert accepted.json["pairing"]["kind"] == "owner_enrollment"
    key, registered = await _register(client, accepted.json["pairing"]["pairing_token"])
    await operator("confirm-device", "--workspace", created.json["id"], "--device", registered["device_id"],
                   "--fingerprint", registered["fingerprint"], settings=settings)
    founder = DeviceCaller(device_id=registered["device_id"], person_id=accepted.json["user_id"], signing_key=key,
                           workspace_id=created.json["id"])
    assert (await _sign_in(client, founder))[0] == 200
    _, workspace = await client.get("/api/v1/workspace", headers=founder.headers())
    assert workspace.json["role"] == "OWNER"
