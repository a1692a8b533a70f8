"""Backups: export sealed to the requester's key, download, verify, cancel, offline recovery.

The recovery tool's command line is tested in tests/client/test_recovery.py."""

from __future__ import annotations

import base64
import json
import uuid

from nacl.public import PrivateKey, SealedBox
from nacl.signing import VerifyKey

from client import recovery
from core import sealing
from core.unit_of_work import unit_of_work
from domain import users
from domain.signing import keys
from domain.signing.signer_keys import signer_key
from models.audit import AuditEntry
from models.backups import Backup
from models.keys import SignerKeyShare
from models.users import User
from tests.support.approvals import make_owner
from tests.support.callers import make_caller
from tests.support.mail import queued_emails
from tests.support.signing import backup_ready, create_vault, ready_vault, settle, status_is
from tests.support.worker import wait_for


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def test_backup_then_offline_recovery_rebuilds_keys_that_sign_verifiably(client, worker, tmp_path):
    # Given two vaults with ready keys
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    second = await create_vault(setup.owner.workspace_id, name="Cold", pooled_for=setup.cosigner)
    await settle(worker, setup.cosigner, until=status_is(second, "ready", "failed"))
    private_key = PrivateKey.generate()
    # When the owner starts a backup to their Curve25519 key and downloads the file
    backup = await backup_ready(client, worker, setup.owner, private_key)
    assert backup["key_set_count"] == 2 and backup["completed_at"] and backup["completed_by"] == setup.owner.user_id
    _, download = await client.get("/api/v1/backup/file", headers=setup.owner.headers())
    assert download.status == 200 and download.headers["content-type"] == "application/octet-stream"
    document = json.loads(download.body)
    assert document["format"] == "custody-backup" and document["scheme"] == "FROST-ED25519-SHA512-v1"
    # Then no service share is readable without the backup key (nor with a signer's own key)
    for row in await SignerKeyShare.all():
        package = json.loads(sealing.unseal(bytes(row.sealed_key_package), key=signer_key(row.participant)))
        assert package["signing_share"] not in download.body.decode()
    # And the offline recovery rebuilds each vault's key, which signs verifiably under the group key
    rebuilt = recovery.recover(document, private_key)
    assert {k.vault_id for k in rebuilt} == {str(setup.vault.id), str(second.id)}
    for key in rebuilt:
        group_key = await keys.group_public_key(vault_id=key.vault_id)
        assert key.group_public_key == group_key and key.participants == (1, 2)
        VerifyKey(group_key).verify(b"move the funds", key.sign(b"move the funds"))
    # And the verification groups name each key with the documented encoding and scheme
    _, info = await client.get(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers())
    assert info.status == 200
    assert {(g["master_xpub"], g["schema"]) for g in info.json["groups"]} == {
        (k.group_public_key.hex(), "FROST-ED25519-SHA512-v1") for k in rebuilt}
    # When the owner confirms with the body the recovery tool writes
    _, verified = await client.post(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers(),
                                    json=recovery.verification_request(document, rebuilt))
    # Then the backup is verified
    assert verified.status == 200 and verified.json["status"] == "verified" and verified.json["verified_at"]


async def test_a_backup_public_key_of_the_wrong_length_is_400_and_nothing_starts(client, broker):
    owner = await make_owner()
    for value, reason in ((_b64(b"k" * 31), "got 31"), (_b64(b"k" * 33), "got 33"), ("not base64!", "base64"), ("", "")):
        _, response = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": value})
        assert response.status == 400 and response.json["code"] == "INVALID_BACKUP_PUBLIC_KEY"
        assert reason in response.json["details"]["reason"]
    _, low_order = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": _b64(bytes(32))})
    assert low_order.status == 400 and low_order.json["code"] == "INVALID_BACKUP_PUBLIC_KEY"
    _, none = await client.get("/api/v1/backup", headers=owner.headers())
    assert none.status == 404 and none.json["code"] == "BACKUP_NOT_FOUND"
    assert await Backup.all().count() == 0


async def test_the_test_file_opens_with_the_requesters_private_key(client):
    owner = await make_owner()
    private_key = PrivateKey.generate()
    # No workspace header; the key travels URL-safe in the query string
    public = base64.urlsafe_b64encode(bytes(private_key.public_key)).decode()
    _, response = await client.get("/api/v1/backup/test-file", params={"public_key": public},
                                   headers=owner.headers(workspace=None))
    assert response.status == 200
    content = json.loads(SealedBox(private_key).decrypt(response.body))
    assert content["format"] == "custody-backup-test" and len(content["challenge"]) == 32
    _, short = await client.get("/api/v1/backup/test-file", params={"public_key": _b64(b"x" * 16)},
                                headers=owner.headers(workspace=None))
    assert short.status == 400 and short.json["code"] == "INVALID_BACKUP_PUBLIC_KEY"
    viewer = await make_caller(role="VIEWER")
    _, denied = await client.get("/api/v1/backup/test-file", params={"public_key": public},
                                 headers=viewer.headers(workspace=None))
    assert denied.status == 403


async def test_cancel_a_running_backup_and_only_the_owner_manages_backups(client, broker):
    owner = await make_owner()
    admin = await make_caller(role="ADMIN", workspace_id=owner.workspace_id)
    key = _b64(bytes(PrivateKey.generate().public_key))
    _, denied = await client.post("/api/v1/backup", headers=admin.headers(), json={"public_key": key})
    assert denied.status == 403 and denied.json["details"]["permission"] == "MANAGE_BACKUP"
    # Given a backup that has not run yet (no worker)
    _, started = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": key})
    _, second = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": key})
    assert second.status == 409 and second.json["code"] == "BACKUP_IN_PROGRESS"
    _, early = await client.get("/api/v1/backup/file", headers=owner.headers())
    assert early.status == 409 and early.json["code"] == "BACKUP_NOT_READY"
    # When the owner cancels it
    _, cancelled = await client.delete("/api/v1/backup", headers=owner.headers())
    # Then it is cancelled, and a new backup may start
    assert cancelled.status == 200 and cancelled.json["status"] == "cancelled"
    assert cancelled.json["backup_id"] == started.json["backup_id"]
    _, again = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": key})
    assert again.status == 202


async def test_verification_with_a_wrong_signature_is_refused(client, worker, tmp_path):
    setup = await ready_vault(client, worker, tmp_path / "cosigner")
    private_key = PrivateKey.generate()
    backup = await backup_ready(client, worker, setup.owner, private_key)
    _, info = await client.get(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers())
    group = info.json["groups"][0]
    forged = {"groups": [{"master_xpub": group["master_xpub"], "schema": group["schema"], "signature": _b64(bytes(64))}]}
    _, refused = await client.post(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers(),
                                   json=forged)
    assert refused.status == 400 and refused.json["code"] == "BACKUP_VERIFICATION_FAILED"
    _, missing = await client.post(f"/api/v1/backup/{backup['backup_id']}/verify", headers=setup.owner.headers(),
                                   json={"groups": []})
    assert missing.status == 400 and missing.json["code"] == "BACKUP_VERIFICATION_FAILED"
    _, status = await client.get("/api/v1/backup", headers=setup.owner.headers())
    assert status.json["status"] == "ready"


async def test_starting_a_backup_and_downloading_its_file_are_audited_and_announced(client, worker, receiver):
    # Given an owner, an ADMIN person with an email, and a webhook subscribed to backup events
    owner = await make_owner()
    async with unit_of_work():
        admin = await users.add_person(workspace_id=uuid.UUID(owner.workspace_id), email="sec@acme.test",
                                       role="ADMIN")
    _, webhook = await client.post("/api/v1/webhooks", headers=owner.headers(),
                                   json={"url": receiver.url(), "event_types": ["backup.*"]})
    assert webhook.status == 201, webhook.json
    key = _b64(bytes(PrivateKey.generate().public_key))
    # When the owner starts a backup
    _, started = await client.post("/api/v1/backup", headers=owner.headers(), json={"public_key": key})
    assert started.status == 202
    # Then it is audited, and announced by webhook and to the administrators by email
    assert await AuditEntry.filter(action="backup.requested", actor_id=owner.user_id).exists()
    emails = await queued_emails("sec@acme.test")
    assert [e.subject for e in emails] == ["A backup of the workspace's key shares was started"]
    owner_email = (await User.get(id=owner.user_id)).email
    assert f"{owner_email} started a backup" in emails[0].body
    # When the backup is ready and the file is downloaded
    await worker.settle()
    await Backup.filter(id=started.json["backup_id"]).update(status="ready", file=b'{"format":"custody-backup"}',
                                                               file_sha256="ab" * 32)
    _, download = await client.get("/api/v1/backup/file", headers=owner.headers())
    assert download.status == 200
    # Then the download is audited and announced too
    entry = await AuditEntry.get(action="backup.downloaded", actor_id=owner.user_id)
    assert entry.details == {"file_sha256": "ab" * 32}
    assert sorted(e.subject for e in await queued_emails("sec@acme.test")) == [
        "A backup of the workspace's key shares was started", "The workspace's backup file was downloaded"]
    await worker.settle()
    delivered = await wait_for(lambda: len(receiver.by_path("/hook")) >= 2 and receiver.by_path("/hook"))
    bodies = sorted((r.json["type"], r.json["data"]["backup_id"]) for r in delivered)
    assert bodies == [("backup.file_downloaded", started.json["backup_id"]),
                      ("backup.started", started.json["backup_id"])]
    assert all(r.json["data"]["actor_id"] == owner.user_id for r in delivered)
    assert str(admin.user.id) not in [r.json["data"]["actor_id"] for r in delivered]
