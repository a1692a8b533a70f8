"""Writing the append-only audit log, always inside the caller's transaction."""

from __future__ import annotations

import uuid
from typing import Any, Sequence

from core.context import current_request_id
from models.audit import AuditEntry


def _entry(*, action: str, object_type: str, object_id: str | uuid.UUID | None, actor_id: uuid.UUID | None,
           actor_type: str, workspace_id: uuid.UUID | None, company_id: uuid.UUID | None,
           details: dict[str, Any] | None) -> AuditEntry:
    return AuditEntry(
        action=action,
        object_type=object_type,
        object_id=str(object_id) if object_id is not None else None,
        actor_id=actor_id,
        actor_type=actor_type if actor_id is not None else "system",
        workspace_id=workspace_id,
        company_id=company_id,
        details=details or {},
        request_id=current_request_id.get(),
    )


async def record(
    *,
    action: str,
    object_type: str,
    object_id: str | uuid.UUID | None,
    actor_id: uuid.UUID | None,
    actor_type: str = "user",
    workspace_id: uuid.UUID | None = None,
    company_id: uuid.UUID | None = None,
    details: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append one audit entry. Call it in the same transaction as the change it records."""
    entry = _entry(action=action, object_type=object_type, object_id=object_id, actor_id=actor_id,
                   actor_type=actor_type, workspace_id=workspace_id, company_id=company_id, details=details)
    await entry.save()
    return entry


async def record_each(
    *,
    action: str,
    object_type: str,
    objects: Sequence[tuple[str | uuid.UUID, dict[str, Any]]],
    actor_id: uuid.UUID | None,
    actor_type: str = "user",
    workspace_id: uuid.UUID | None = None,
) -> None:
    """Append one entry per ``(object_id, details)`` with a single INSERT: a bulk action (one
    request attaching tags to a hundred vaults) is recorded change by change, in the caller's
    transaction like :func:`record`."""
    if objects:
        await AuditEntry.bulk_create([
            _entry(action=action, object_type=object_type, object_id=object_id, actor_id=actor_id,
                   actor_type=actor_type, workspace_id=workspace_id, company_id=None, details=details)
            for object_id, details in objects
        ])
