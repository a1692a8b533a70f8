"""Writing the append-only audit log, always inside the caller's transaction."""

from __future__ import annotations

import uuid
from typing import Any

from core.context import current_request_id
from models.audit import AuditEntry


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
    return await AuditEntry.create(
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
