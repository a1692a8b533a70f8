"""Backups: /api/v1/backup (start, status, file, cancel, test file, verification).

All endpoints need MANAGE_BACKUP (the workspace OWNER). Statuses: pending, in_progress, ready,
verified, cancelled, failed (docs/signing.md, "Backups").
"""

from __future__ import annotations

import base64
import binascii
import uuid
from typing import Any

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, json, raw
from sanic_ext import openapi

from api.context import iso, json_body, principal, workspace
from core.unit_of_work import unit_of_work
from domain.errors import ValidationFailed
from domain.signing import backups
from models.backups import Backup

bp = Blueprint("backups", url_prefix="/api/v1/backup")


def _public_key(value: Any) -> bytes:
    """The requester's Curve25519 key: base64 (standard or URL-safe) of exactly 32 bytes."""
    if not isinstance(value, str) or not value.strip():
        raise ValidationFailed("public_key is required: base64 of a 32-byte Curve25519 public key",
                               code="INVALID_BACKUP_PUBLIC_KEY",
                               details={"field": "public_key", "reason": "is required"})
    # In a query string '+' arrives as a space.
    text = value.strip().replace(" ", "+")
    try:
        decoded = base64.b64decode(text.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        raise ValidationFailed("public_key must be base64", code="INVALID_BACKUP_PUBLIC_KEY",
                               details={"field": "public_key", "reason": "must be base64"}) from None
    return backups.check_public_key(decoded)


def serialize(backup: Backup) -> dict[str, Any]:
    return {
        "backup_id": str(backup.id),
        "status": backup.status,
        # When the file was assembled, and for whom (the requester).
        "completed_at": iso(backup.completed_at),
        "completed_by": str(backup.requested_by_id) if backup.requested_by_id else None,  # type: ignore[attr-defined]
        "requested_at": iso(backup.created_at),
        "verified_at": iso(backup.verified_at),
        "verified_by": str(backup.verified_by_id) if backup.verified_by_id else None,  # type: ignore[attr-defined]
        "public_key": base64.b64encode(bytes(backup.public_key)).decode(),
        "key_set_count": len(backup.key_set_ids or []),
        "file_sha256": backup.file_sha256,
        "error": backup.error,
    }


@bp.get("")
@openapi.summary("The workspace's current backup")
@openapi.secured("BearerAuth")
async def get_backup(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    return json(serialize(await backups.current_backup(principal=caller, workspace_id=ws.id)))


@bp.post("")
@openapi.summary("Start a backup of the workspace key shares, sealed to public_key (Curve25519, base64)")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"public_key": str}})
async def start_backup(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    public_key = _public_key(json_body(request).get("public_key"))
    async with unit_of_work():
        backup = await backups.start_backup(principal=caller, workspace_id=ws.id, public_key=public_key)
    return json(serialize(backup), status=202)


@bp.delete("")
@openapi.summary("Cancel the workspace's current backup")
@openapi.secured("BearerAuth")
async def cancel_backup(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        backup = await backups.cancel_backup(principal=caller, workspace_id=ws.id)
    return json(serialize(backup))


@bp.get("/file")
@openapi.summary("Download the backup file (JSON; every share sealed to the backup key)")
@openapi.secured("BearerAuth")
async def download(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        backup, file = await backups.backup_file(principal=caller, workspace_id=ws.id)
    return raw(file, content_type="application/json",
               headers={"Content-Disposition": f'attachment; filename="custody-backup-{backup.id}.json"',
                        "X-Backup-Sha256": backup.file_sha256 or ""})


@bp.get("/test-file")
@openapi.summary("A small file sealed to ?public_key=: decrypting it proves the private key works")
@openapi.secured("BearerAuth")
@openapi.parameter("public_key", str, "query")
async def test_file(request: Request) -> HTTPResponse:
    caller = await principal(request)
    public_key = _public_key(request.args.get("public_key"))
    content = backups.test_file(principal=caller, public_key=public_key)
    return raw(content, content_type="application/octet-stream",
               headers={"Content-Disposition": 'attachment; filename="custody-backup-test.bin"'})


@bp.get("/<backup_id:uuid>/verify")
@openapi.summary("Verification groups of a backup: master_xpub and schema per key")
@openapi.secured("BearerAuth")
async def verification_info(request: Request, backup_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    groups = await backups.verification_groups(principal=caller, workspace_id=ws.id, backup_id=backup_id)
    return json({"groups": groups})


@bp.post("/<backup_id:uuid>/verify")
@openapi.summary("Confirm the backup restores: each group signed by its restored key")
@openapi.secured("BearerAuth")
@openapi.body({"application/json": {"groups": list}})
async def verify(request: Request, backup_id: uuid.UUID) -> HTTPResponse:
    caller, ws = await workspace(request)
    groups = json_body(request).get("groups")
    async with unit_of_work():
        backup = await backups.verify_backup(principal=caller, workspace_id=ws.id, backup_id=backup_id, groups=groups)
    return json(serialize(backup))
