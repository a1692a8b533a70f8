"""Backups: /api/v1/backup (start, status, file, cancel, test file, verification).

All endpoints need MANAGE_BACKUP (the workspace OWNER). Statuses: pending, in_progress, ready,
verified, cancelled, failed (docs/signing.md, "Backups").
"""

from __future__ import annotations

import uuid

from sanic import Blueprint, Request
from sanic.response import HTTPResponse, raw

from api.context import principal, workspace
from api.contract import File, endpoint
from api.schemas.backups import Backup, BackupStart, BackupVerification, TestFileQuery, VerificationGroups
from core.unit_of_work import unit_of_work
from domain.signing import backups

bp = Blueprint("backups", url_prefix="/api/v1/backup")

_TAG = "backups"
_NO_BACKUP = {404: ["BACKUP_NOT_FOUND"]}
_NOT_READY = {409: ["BACKUP_NOT_READY"]}


@bp.get("")
@endpoint(summary="The workspace's current (newest) backup", tag=_TAG, responses={200: Backup}, workspace=True,
          errors=_NO_BACKUP)
async def get_backup(request: Request) -> Backup:
    caller, ws = await workspace(request)
    return Backup.of(await backups.current_backup(principal=caller, workspace_id=ws.id))


@bp.post("")
@endpoint(summary="Start a backup of the workspace key shares, sealed to public_key (Curve25519, base64)",
          tag=_TAG, body=BackupStart, responses={202: Backup}, workspace=True,
          errors={400: ["INVALID_BACKUP_PUBLIC_KEY"], 409: ["BACKUP_IN_PROGRESS"]})
async def start_backup(request: Request, body: BackupStart) -> Backup:
    caller, ws = await workspace(request)
    async with unit_of_work():
        backup = await backups.start_backup(principal=caller, workspace_id=ws.id, public_key=body.public_key)
    return Backup.of(backup)


@bp.delete("")
@endpoint(summary="Cancel the workspace's current backup (pending, in progress or ready; the file is dropped)",
          tag=_TAG, responses={200: Backup}, workspace=True,
          errors={**_NO_BACKUP, 409: ["BACKUP_NOT_CANCELLABLE"]})
async def cancel_backup(request: Request) -> Backup:
    caller, ws = await workspace(request)
    async with unit_of_work():
        backup = await backups.cancel_backup(principal=caller, workspace_id=ws.id)
    return Backup.of(backup)


@bp.get("/file")
@endpoint(summary="Download the backup file (a file of JSON text; every share sealed to the backup key)", tag=_TAG,
          description="Answers once the backup is ready or verified; X-Backup-Sha256 carries the file's SHA-256.",
          responses={200: File("application/octet-stream", "the backup file: UTF-8 JSON text of format "
                                                  "custody-backup (docs/signing.md), to be saved as it is")},
          workspace=True, errors={**_NO_BACKUP, **_NOT_READY})
async def download(request: Request) -> HTTPResponse:
    caller, ws = await workspace(request)
    async with unit_of_work():
        backup, file = await backups.backup_file(principal=caller, workspace_id=ws.id)
    return raw(file, content_type="application/octet-stream",
               headers={"Content-Disposition": f'attachment; filename="custody-backup-{backup.id}.json"',
                        "X-Backup-Sha256": backup.file_sha256 or ""})


@bp.get("/test-file")
@endpoint(summary="A small file sealed to ?public_key=: decrypting it proves the private key works", tag=_TAG,
          description="Takes no workspace header: any caller who may manage backups in one of its workspaces.",
          query=TestFileQuery, responses={200: File("application/octet-stream", "SealedBox(public_key) of a JSON "
                                                    "document (format custody-backup-test)")},
          errors={400: ["INVALID_BACKUP_PUBLIC_KEY"], 403: ["PERMISSION_DENIED"]})
async def test_file(request: Request, query: TestFileQuery) -> HTTPResponse:
    caller = await principal(request)
    content = backups.test_file(principal=caller, public_key=query.public_key)
    return raw(content, content_type="application/octet-stream",
               headers={"Content-Disposition": 'attachment; filename="custody-backup-test.bin"'})


@bp.get("/<backup_id:uuid>/verify")
@endpoint(summary="Verification groups of a backup: master_xpub and schema per key", tag=_TAG,
          responses={200: VerificationGroups}, workspace=True, errors={**_NO_BACKUP, **_NOT_READY})
async def verification_info(request: Request, backup_id: uuid.UUID) -> VerificationGroups:
    caller, ws = await workspace(request)
    groups = await backups.verification_groups(principal=caller, workspace_id=ws.id, backup_id=backup_id)
    return VerificationGroups.of(groups)


@bp.post("/<backup_id:uuid>/verify")
@endpoint(summary="Confirm the backup restores: each group signed by its restored key", tag=_TAG,
          body=BackupVerification, responses={200: Backup}, workspace=True,
          errors={400: ["BACKUP_VERIFICATION_FAILED"], **_NO_BACKUP, **_NOT_READY})
async def verify(request: Request, backup_id: uuid.UUID, body: BackupVerification) -> Backup:
    caller, ws = await workspace(request)
    async with unit_of_work():
        backup = await backups.verify_backup(principal=caller, workspace_id=ws.id, backup_id=backup_id,
                                             groups=body.as_domain())
    return Backup.of(backup)
