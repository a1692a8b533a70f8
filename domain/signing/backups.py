"""Backups: every key share of a workspace exported, each sealed to the requester's Curve25519 key.

Flow (the workspace has one current backup: the newest)::

    start_backup (POST /backup)     pending       command backups.start
    backups.start                   in_progress   fixes the key sets (all ready ones);
                                                  signer_1.export_backup, signer_2.export_backup
    signer_N.export_backup                        the signer seals each of its key packages to the
                                                  backup key (SealedBox) -> one BackupPart
    backups.assemble                ready         both parts in: one JSON file (format below)
    verify_backup (POST .../verify) verified      the owner proved every key restores
    cancel_backup (DELETE /backup)  cancelled     from pending, in_progress or ready (file dropped)
    any step that cannot complete   failed        ``error`` says why

A service share leaves its signer only inside a sealed box to the backup key; the service
never holds the backup private key, so it cannot open the file it assembles. The co-signer's
part is added as it is escrowed (encrypted under the client's passphrase).

Backup file (JSON, UTF-8)::

    {"format": "custody-backup", "version": 1, "scheme": "FROST-ED25519-SHA512-v1",
     "backup_id": ..., "workspace_id": ..., "created_at": ..., "recipient_public_key": <base64>,
     "verification_message": <base64: what POST /backup/{id}/verify signatures sign>,
     "key_sets": [{"key_set_id", "vault_id", "scheme", "min_signers", "max_signers",
                   "master_xpub": <hex group public key>, "verifying_shares": {"1": hex, ...},
                   "shares": [{"participant": 1, "sealed_key_package": <base64 SealedBox>}, ...],
                   "cosigner_part": {"part_id", "config"} | null}]}

Each sealed key package opens (``nacl.public.SealedBox(private_key).decrypt``) to the JSON of the
key set's scheme's ``KeyPackage.to_dict()``. A key set's ``scheme`` (FROST(Ed25519), the
Taproot secp256k1 one or threshold ECDSA, whose packages are secp256k1 ones) is in its entry; the top-level ``scheme`` is that of entries without one
(files written before key sets had several schemes). client/recovery.py is the offline tool
that reads it.

Verification groups carry each key's scheme as ``schema``; the signature of the verification
message is checked by the chain's own rule: Ed25519 (RFC 8032) for Ed25519 keys, BIP-340 under
the key-path Taproot output key (a P2TR address's key) for Taproot keys, ECDSA (``r || s``, low
s, libsecp256k1) of SHA-256(message) for threshold ECDSA keys.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import uuid
from typing import Any

from nacl.exceptions import BadSignatureError
from nacl.public import PublicKey, SealedBox
from nacl.signing import VerifyKey

from core import clock
from core.clock import rfc3339
from core.outbox import add_command
from domain import audit, notifications
from domain.auth import Principal
from domain.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from domain.permissions import Permission
from domain.signing import keys
from domain.webhooks import events
from domain.webhooks.catalogue import BACKUP_FILE_DOWNLOADED, BACKUP_STARTED
from models.backups import Backup, BackupPart
from models.cosigner import CosignerPart
from models.keys import KeySet
from models.workspaces import Workspace
from threshold import scheme
from threshold.scheme import ECDSA_SCHEME
from threshold.scheme import ED25519_SCHEME as SCHEME
from threshold.suites import ecdsa_backup_digest, suite_of

#: Taproot keys prove themselves for the key-path-only output (what a P2TR address is).
KEY_PATH = b""

START = "backups.start"
ASSEMBLE = "backups.assemble"

FILE_FORMAT = "custody-backup"
FILE_VERSION = 1
TEST_FILE_FORMAT = "custody-backup-test"
STATUSES = ("pending", "in_progress", "ready", "verified", "cancelled", "failed")
ACTIVE = ("pending", "in_progress")
CANCELLABLE = ("pending", "in_progress", "ready")


def verification_message(backup_id: uuid.UUID | str) -> bytes:
    """What each restored key signs to verify the backup (POST /backup/{id}/verify)."""
    return b"custody-backup-verify:v1:" + str(backup_id).encode()


def check_public_key(raw: bytes) -> bytes:
    """A usable Curve25519 public key of exactly 32 bytes, else 400 INVALID_BACKUP_PUBLIC_KEY."""
    if len(raw) != 32:
        raise ValidationFailed(f"public_key must be a 32-byte Curve25519 public key, got {len(raw)} bytes",
                               code="INVALID_BACKUP_PUBLIC_KEY",
                               details={"field": "public_key", "reason": f"must decode to 32 bytes, got {len(raw)}"})
    try:
        SealedBox(PublicKey(raw)).encrypt(b"probe")
    except Exception:  # noqa: BLE001 - libsodium rejects low-order keys with a bare RuntimeError
        raise ValidationFailed("public_key is not a usable Curve25519 public key", code="INVALID_BACKUP_PUBLIC_KEY",
                               details={"field": "public_key", "reason": "low-order or invalid point"}) from None
    return raw


def _not_found() -> NotFound:
    return NotFound("no backup for this workspace", code="BACKUP_NOT_FOUND")


async def start_backup(*, principal: Principal, workspace_id: uuid.UUID, public_key: bytes) -> Backup:
    """Start the export of the workspace's key shares, sealed to ``public_key``."""
    principal.require(workspace_id, Permission.MANAGE_BACKUP)
    check_public_key(public_key)
    # Serialize concurrent requests of one workspace on its row: at most one backup runs.
    await Workspace.filter(id=workspace_id).select_for_update(no_key=True).first()
    running = await Backup.filter(workspace_id=workspace_id, status__in=list(ACTIVE)).first()
    if running is not None:
        raise Conflict("a backup of this workspace is already running", code="BACKUP_IN_PROGRESS",
                       details={"backup_id": str(running.id), "status": running.status})
    backup = await Backup.create(workspace_id=workspace_id, public_key=public_key, requested_by=principal.user)
    await add_command(actor_name=START, payload={"backup_id": str(backup.id)}, workspace_id=workspace_id)
    key_sha256 = hashlib.sha256(public_key).hexdigest()
    await audit.record(action="backup.requested", object_type="backup", object_id=backup.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"public_key_sha256": key_sha256})
    await _announce(backup, principal, BACKUP_STARTED, action="backup.requested",
                    subject="A backup of the workspace's key shares was started",
                    text=(f"{_who(principal)} started a backup: every key share of this workspace is being exported, "
                          f"sealed to the public key with SHA-256 {key_sha256}."),
                    extra={"public_key_sha256": key_sha256})
    return backup


def _who(principal: Principal) -> str:
    user = principal.user
    return user.email or (f"API user {user.api_user_name}" if user.api_user_name else str(user.id))


async def _announce(backup: Backup, principal: Principal, event_type: str, *, action: str, subject: str, text: str,
                    extra: dict[str, Any]) -> None:
    """Tell the workspace: a webhook event, and the OWNER and ADMINs (domain/notifications.py)."""
    workspace_id: uuid.UUID = backup.workspace_id
    data = {"backup_id": str(backup.id), "status": backup.status, "actor_id": str(principal.user.id),
            "actor_type": principal.user.user_type,
            "device_id": str(principal.device.id) if principal.device else None,
            "at": rfc3339(clock.now()), **extra}
    await events.emit_event(workspace_id=workspace_id, event_type=event_type, data=data)
    await notifications.announce_to_admins(
        workspace_id=workspace_id, action=action, subject=subject,
        body=(f"{text}\n\nBackup {backup.id}, at {data['at']}. If this was not expected, cancel it "
              "(DELETE /api/v1/backup) and review who holds the OWNER role.\n"),
        details=data)


async def current_backup(*, principal: Principal, workspace_id: uuid.UUID) -> Backup:
    """The workspace's newest backup."""
    principal.require(workspace_id, Permission.MANAGE_BACKUP)
    backup = await Backup.filter(workspace_id=workspace_id).order_by("-created_at").first()
    if backup is None:
        raise _not_found()
    return backup


async def _backup(
    principal: Principal, workspace_id: uuid.UUID, backup_id: uuid.UUID, *, lock: bool = False
) -> Backup:
    principal.require(workspace_id, Permission.MANAGE_BACKUP)
    query = Backup.filter(id=backup_id, workspace_id=workspace_id)
    backup = await (query.select_for_update() if lock else query).first()
    if backup is None:
        raise NotFound("backup not found", code="BACKUP_NOT_FOUND")
    return backup


async def cancel_backup(*, principal: Principal, workspace_id: uuid.UUID) -> Backup:
    """Cancel the current backup (pending, in progress or ready); a ready file is discarded."""
    current = await current_backup(principal=principal, workspace_id=workspace_id)
    backup = await _backup(principal, workspace_id, current.id, lock=True)
    if backup.status == "cancelled":
        return backup
    if backup.status not in CANCELLABLE:
        raise Conflict(f"a {backup.status} backup cannot be cancelled", code="BACKUP_NOT_CANCELLABLE",
                       details={"status": backup.status})
    backup.status = "cancelled"
    backup.file = None
    await backup.save(update_fields=["status", "file"])
    await BackupPart.filter(backup_id=backup.id).delete()
    await audit.record(action="backup.cancelled", object_type="backup", object_id=backup.id,
                       actor_id=principal.user.id, workspace_id=workspace_id)
    return backup


async def backup_file(*, principal: Principal, workspace_id: uuid.UUID) -> tuple[Backup, bytes]:
    """The current backup's file; 409 BACKUP_NOT_READY until it is assembled."""
    backup = await current_backup(principal=principal, workspace_id=workspace_id)
    if backup.status not in ("ready", "verified") or backup.file is None:
        raise Conflict(f"the backup is {backup.status}; the file is not available", code="BACKUP_NOT_READY",
                       details={"status": backup.status})
    await audit.record(action="backup.downloaded", object_type="backup", object_id=backup.id,
                       actor_id=principal.user.id, workspace_id=workspace_id,
                       details={"file_sha256": backup.file_sha256})
    await _announce(backup, principal, BACKUP_FILE_DOWNLOADED, action="backup.downloaded",
                    subject="The workspace's backup file was downloaded",
                    text=f"{_who(principal)} downloaded the backup file (SHA-256 {backup.file_sha256}).",
                    extra={"file_sha256": backup.file_sha256})
    return backup, bytes(backup.file)


def test_file(*, principal: Principal, public_key: bytes) -> bytes:
    """A small JSON document sealed to ``public_key``: opening it proves the private key works.

    Needs no workspace: any caller who may manage backups somewhere can ask, before POST /backup.
    """
    if not any(Permission.MANAGE_BACKUP in a.permissions for a in principal.accesses.values()):
        raise PermissionDenied("this needs the permission MANAGE_BACKUP", code="PERMISSION_DENIED",
                               details={"permission": Permission.MANAGE_BACKUP.value})
    check_public_key(public_key)
    document = {
        "format": TEST_FILE_FORMAT,
        "version": FILE_VERSION,
        "created_at": rfc3339(clock.now()),
        "challenge": os.urandom(16).hex(),
        "message": "If you can read this, your private key opens custody backups sealed to its public key.",
    }
    return bytes(SealedBox(PublicKey(public_key)).encrypt(json.dumps(document).encode()))


async def _groups(backup: Backup) -> list[dict[str, Any]]:
    key_sets = {str(k.id): k for k in await KeySet.filter(id__in=backup.key_set_ids)}
    groups = []
    for key_set_id in backup.key_set_ids:
        key_set = key_sets[key_set_id]
        groups.append({"master_xpub": keys.master_xpub(bytes(key_set.group_public_key)),  # type: ignore[arg-type]  # set once ready
                       "schema": key_set.scheme, "key_set_id": key_set_id,
                       "vault_id": str(key_set.vault_id)})
    return groups


async def verification_groups(
    *, principal: Principal, workspace_id: uuid.UUID, backup_id: uuid.UUID
) -> list[dict[str, Any]]:
    """The groups a verification must confirm: one per key set in the backup."""
    backup = await _backup(principal, workspace_id, backup_id)
    if backup.status not in ("ready", "verified"):
        raise Conflict(f"the backup is {backup.status}", code="BACKUP_NOT_READY", details={"status": backup.status})
    return await _groups(backup)


def _verification_failed(reason: str, **details: Any) -> ValidationFailed:
    return ValidationFailed(f"backup verification failed: {reason}", code="BACKUP_VERIFICATION_FAILED",
                            details={"reason": reason, **details})


async def verify_backup(
    *, principal: Principal, workspace_id: uuid.UUID, backup_id: uuid.UUID, groups: Any
) -> Backup:
    """Confirm the backup restores: one group per key set, each with a signature made by the
    restored key over :func:`verification_message` (client/recovery.py produces the body)."""
    backup = await _backup(principal, workspace_id, backup_id, lock=True)
    if backup.status == "verified":
        return backup
    if backup.status != "ready":
        raise Conflict(f"the backup is {backup.status}", code="BACKUP_NOT_READY", details={"status": backup.status})
    if not isinstance(groups, list) or not all(isinstance(g, dict) for g in groups):
        raise ValidationFailed("groups must be a list of {master_xpub, schema, signature}", code="VALIDATION_ERROR",
                               details={"field": "groups"})
    schemes = {g["master_xpub"]: g["schema"] for g in await _groups(backup)}
    expected = set(schemes)
    seen: set[str] = set()
    message = verification_message(backup.id)
    for group in groups:
        master, schema, signature = group.get("master_xpub"), group.get("schema"), group.get("signature")
        if not isinstance(master, str) or master not in expected or master in seen:
            raise _verification_failed("master_xpub is not a key of this backup (or is repeated)",
                                       master_xpub=master)
        if schema != schemes[master]:
            raise _verification_failed(f"schema must be {schemes[master]}", master_xpub=master)
        try:
            raw = base64.b64decode(signature, validate=True)
            if schema == SCHEME:
                VerifyKey(bytes.fromhex(master)).verify(message, raw)
            elif schema == ECDSA_SCHEME:
                if not suite_of(schema).verify(bytes.fromhex(master), ecdsa_backup_digest(message), raw):
                    raise BadSignatureError("ECDSA")
            elif not suite_of(schema).verify(bytes.fromhex(master), message, raw, KEY_PATH):
                raise BadSignatureError("BIP-340")
        except (BadSignatureError, ValueError, TypeError):
            raise _verification_failed("the signature does not verify under master_xpub",
                                       master_xpub=master) from None
        seen.add(master)
    if seen != expected:
        raise _verification_failed("every key of the backup must be verified",
                                   missing=sorted(expected - seen))
    backup.status = "verified"
    backup.verified_at = clock.now()
    backup.verified_by = principal.user
    await backup.save(update_fields=["status", "verified_at", "verified_by_id"])
    await audit.record(action="backup.verified", object_type="backup", object_id=backup.id,
                       actor_id=principal.user.id, workspace_id=workspace_id, details={"groups": len(seen)})
    return backup


# --------------------------------------------------------------------------------------------
# Pipeline (actors/backups.py, actors/service_signer.py)
# --------------------------------------------------------------------------------------------


async def fail(backup: Backup, reason: str) -> None:
    if backup.status not in ACTIVE:
        return
    backup.status = "failed"
    backup.error = reason[:2000]
    await backup.save(update_fields=["status", "error"])
    await BackupPart.filter(backup_id=backup.id).delete()
    await audit.record(action="backup.failed", object_type="backup", object_id=backup.id, actor_id=None,
                       workspace_id=backup.workspace_id, details={"reason": reason[:500]})


async def begin_export(*, backup_id: uuid.UUID | str) -> bool:
    """Fix the key sets to export (every ready one) and ask each signer for its part."""
    backup = await Backup.filter(id=backup_id).select_for_update(no_key=True).first()
    if backup is None or backup.status != "pending":
        return False
    ready = await KeySet.filter(workspace_id=backup.workspace_id, status="ready").order_by("created_at", "id")
    backup.key_set_ids = [str(k.id) for k in ready]
    backup.status = "in_progress"
    await backup.save(update_fields=["key_set_ids", "status"])
    for participant in scheme.SERVICE_PARTICIPANTS:
        await add_command(actor_name=keys.signer_actor(participant, "export_backup"),
                          payload={"backup_id": str(backup.id)}, workspace_id=backup.workspace_id)
    return True


async def assemble(*, backup_id: uuid.UUID | str) -> bool:
    """Both signers exported: write the one backup file and drop the parts."""
    backup = await Backup.filter(id=backup_id).select_for_update(no_key=True).first()
    if backup is None or backup.status != "in_progress":
        return False
    parts = {p.participant: p for p in await BackupPart.filter(backup_id=backup.id)}
    if set(parts) != set(scheme.SERVICE_PARTICIPANTS):
        return False
    shares: dict[str, list[dict[str, Any]]] = {k: [] for k in backup.key_set_ids}
    for participant in sorted(parts):
        for entry in parts[participant].entries:
            shares[entry["key_set_id"]].append({"participant": entry["participant"],
                                                "sealed_key_package": entry["sealed_key_package"]})
    key_sets = {str(k.id): k for k in await KeySet.filter(id__in=backup.key_set_ids)}
    cosigner_parts = {str(p.key_set_id): p for p in
                      await CosignerPart.filter(key_set_id__in=backup.key_set_ids, status="committed")}
    entries = []
    for key_set_id in backup.key_set_ids:
        key_set = key_sets[key_set_id]
        part = cosigner_parts.get(key_set_id)
        entries.append({
            "key_set_id": key_set_id,
            "vault_id": str(key_set.vault_id),
            "scheme": key_set.scheme,
            "min_signers": key_set.min_signers,
            "max_signers": key_set.max_signers,
            "master_xpub": keys.master_xpub(bytes(key_set.group_public_key)),  # type: ignore[arg-type]  # set once ready
            "verifying_shares": dict(key_set.verifying_shares or {}),
            "shares": shares[key_set_id],
            "cosigner_part": {"part_id": str(part.id), "config": part.config} if part else None,
        })
    document = {
        "format": FILE_FORMAT,
        "version": FILE_VERSION,
        "scheme": SCHEME,
        "backup_id": str(backup.id),
        "workspace_id": str(backup.workspace_id),
        "created_at": rfc3339(clock.now()),
        "recipient_public_key": base64.b64encode(bytes(backup.public_key)).decode(),
        "verification_message": base64.b64encode(verification_message(backup.id)).decode(),
        "key_sets": entries,
    }
    file = json.dumps(document, indent=2).encode()
    backup.file = file
    backup.file_sha256 = hashlib.sha256(file).hexdigest()
    backup.status = "ready"
    backup.completed_at = clock.now()
    await backup.save(update_fields=["file", "file_sha256", "status", "completed_at"])
    await BackupPart.filter(backup_id=backup.id).delete()
    await audit.record(action="backup.ready", object_type="backup", object_id=backup.id, actor_id=None,
                       workspace_id=backup.workspace_id,
                       details={"key_sets": len(entries), "file_sha256": backup.file_sha256})
    return True
