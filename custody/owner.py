"""``custody owner``: the operator's side of the owner's device (docs/users.md).

    custody owner enroll [--workspace W] [--out FILE]     a one-time enrollment secret for the
                                                          owner's device (first, or a recovery)
    custody owner devices [--workspace W]                 the owner's devices and their fingerprints
    custody owner confirm-device --device D --fingerprint "XXXX XXXX ..." [--workspace W]
                                                          confirm the owner's enrolled device

They work on the service's database (the embedded development servers when DATABASE_URL and
REDIS_URL are unset), as only the operator can: nobody in a workspace can confirm its owner's
first device. Read the fingerprint *from the owner* (their device shows it), by a call or in
person, and type it: never copy it from the service's own output. ``--workspace`` may be left
out while the database holds one workspace.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from pathlib import Path
from typing import Any

from common.files import write_private_file
from core.clock import rfc3339
from core.settings import Settings, get_settings
from core.unit_of_work import unit_of_work
from custody.embedded import with_embedded_servers
from custody.wiring import close_database, migrate, open_database, setup_broker
from domain import devices
from domain.errors import DomainError
from domain.permissions import WorkspaceRole
from models.users import WorkspaceMember
from models.workspaces import Workspace


class OwnerCommandError(Exception):
    """What the command says on stderr before it exits with status 2."""


async def _workspace_id(value: str | None) -> uuid.UUID:
    if value:
        try:
            workspace_id = uuid.UUID(value)
        except ValueError:
            raise OwnerCommandError(f"--workspace {value!r} is not a UUID") from None
        if not await Workspace.exists(id=workspace_id):
            raise OwnerCommandError(f"no workspace {workspace_id}")
        return workspace_id
    found = await Workspace.all().limit(2).values_list("id", flat=True)
    if len(found) != 1:
        raise OwnerCommandError("name the workspace with --workspace (the database holds "
                                f"{'none' if not found else 'several'})")
    return found[0]  # type: ignore[return-value]  # flat values_list


def enrollment_document(*, base_url: str, workspace_id: uuid.UUID | str, owner_id: uuid.UUID | str,
                        invitation: devices.PairingInvitation) -> dict[str, Any]:
    """What the owner's device needs to enroll (the file ``--out`` writes, mode 0600)."""
    return {"base_url": base_url, "workspace_id": str(workspace_id), "owner_id": str(owner_id),
            "owner_enrollment_secret": invitation.pairing_token, "expires_at": rfc3339(invitation.expires_at),
            "not_before": rfc3339(invitation.not_before) if invitation.not_before else None}


async def enroll(*, workspace: str | None, base_url: str) -> dict[str, Any]:
    """``custody owner enroll``: the enrollment document (the secret is shown only here)."""
    workspace_id = await _workspace_id(workspace)
    async with unit_of_work():
        invitation = await devices.start_owner_enrollment(workspace_id=workspace_id)
        owner = await WorkspaceMember.get(workspace_id=workspace_id, role=WorkspaceRole.OWNER)
    return enrollment_document(base_url=base_url, workspace_id=workspace_id, owner_id=owner.user_id,
                               invitation=invitation)


async def owner_devices(*, workspace: str | None) -> list[dict[str, Any]]:
    """``custody owner devices``."""
    workspace_id = await _workspace_id(workspace)
    return [{"device_id": str(d.device.id), "name": d.device.name, "status": d.device.status,
             "fingerprint": d.device.fingerprint, "registered_at": rfc3339(d.device.created_at),
             "enrolled": d.enrolled, "confirmable_from": rfc3339(d.not_before) if d.not_before else None,
             "enrollment_expires_at": rfc3339(d.enrollment_expires_at) if d.enrollment_expires_at else None}
            for d in await devices.owner_devices(workspace_id=workspace_id)]


async def confirm_device(*, workspace: str | None, device: str, fingerprint: str) -> dict[str, Any]:
    """``custody owner confirm-device``: the owner's enrolled device becomes active."""
    workspace_id = await _workspace_id(workspace)
    try:
        device_id = uuid.UUID(device)
    except ValueError:
        raise OwnerCommandError(f"--device {device!r} is not a UUID") from None
    async with unit_of_work():
        confirmed = await devices.confirm_owner_device(workspace_id=workspace_id, device_id=device_id,
                                                       fingerprint_seen=fingerprint)
    return {"device_id": str(confirmed.device.id), "status": confirmed.device.status,
            "fingerprint": confirmed.device.fingerprint, "revoked_device_ids": [str(d) for d in confirmed.revoked]}


async def run_command(args: argparse.Namespace, settings: Settings) -> Any:
    """The sub-command's work, on an open database."""
    if args.owner_command == "enroll":
        return await enroll(workspace=args.workspace, base_url=args.base_url or settings.base_url)
    if args.owner_command == "devices":
        return await owner_devices(workspace=args.workspace)
    return await confirm_device(workspace=args.workspace, device=args.device, fingerprint=args.fingerprint)


def _print(args: argparse.Namespace, result: Any) -> None:
    if args.owner_command == "enroll":
        print(f"owner enrollment secret (shown once; expires {result['expires_at']}):\n\n"
              f"    {result['owner_enrollment_secret']}\n")
        if result["not_before"]:
            print(f"a recovery: the owner and the administrators were told; the new device can be confirmed from "
                  f"{result['not_before']} on")
        if args.out:
            print(f"written to {args.out} (mode 0600) for the owner's device")
    elif args.owner_command == "devices":
        if not result:
            print("the owner has no device yet")
        for row in result:
            when = f", confirmable from {row['confirmable_from']}" if row["confirmable_from"] else ""
            print(f"{row['device_id']}  {row['status']:<20}  {row['fingerprint']}  {row['name']!r}"
                  f"{' (enrolled)' if row['enrolled'] else ''}{when}")
    else:
        revoked = result["revoked_device_ids"]
        print(f"device {result['device_id']} is active: it signs in as the owner"
              + (f"; revoked the owner's earlier device(s) {', '.join(revoked)}" if revoked else ""))


def cmd_owner(args: argparse.Namespace) -> int:
    settings, servers = get_settings(), None
    if args.out and Path(args.out).is_symlink():
        sys.exit(f"custody owner: {args.out} is a symbolic link; refusing to write the secret through it")
    if not (settings.database_url and settings.redis_url):
        settings, servers = with_embedded_servers(settings)  # custody dev's embedded servers

    async def run() -> Any:
        await migrate(settings)
        setup_broker(settings, worker=False)  # the notices' emails are enqueued after commit
        await open_database(settings)
        try:
            return await run_command(args, settings)
        finally:
            await close_database()

    try:
        result = asyncio.run(run())
    except (DomainError, OwnerCommandError) as exc:
        code = getattr(exc, "code", "ERROR")
        print(f"custody owner: {code}: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 2
    finally:
        if servers is not None:
            servers.stop()
    if args.out and args.owner_command == "enroll":
        write_private_file(Path(args.out), json.dumps(result, indent=2))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _print(args, result)
    return 0

