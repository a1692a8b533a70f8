"""The append-only audit log: writing it (inside the caller's transaction) and reading it.

Writing: :func:`record` and :func:`record_each` add entries in the transaction of the change
they record; the database stamps each one's commit-order position, so writers never wait for
one another. Once the transaction commits, the workspace's chainer is nudged
(domain/audit_chain.py links final entries into the workspace's hash chain and signs its head;
the scheduler's sweep does the same for anything a lost nudge left behind).

Reading (:func:`list_entries`, GET /api/v1/audit/entries): the chained entries of one workspace,
in chain order, with their hashes, filtered by action, actor, object and time, paged by a cursor
(the last ``seq`` served), with the latest signed head and how far the chain reaches. Rights:
VIEW_AUDIT_LOG (OWNER, ADMIN, NON_SIGNING_ADMIN).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Sequence

from core.context import current_request_id
from core.rows import build
from core.unit_of_work import nudge_after_commit
from domain.audit_chain import CHAIN, CHAIN_DELAY_MS, latest_head
from domain.auth import Principal
from domain.permissions import Permission
from models.audit import AuditChainLink, AuditEntry, AuditHead


def _entry(*, action: str, object_type: str, object_id: str | uuid.UUID | None, actor_id: uuid.UUID | None,
           actor_type: str, workspace_id: uuid.UUID | None, company_id: uuid.UUID | None,
           details: dict[str, Any] | None) -> AuditEntry:
    return build(
        AuditEntry,
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
    entry = new_entry(action=action, object_type=object_type, object_id=object_id, actor_id=actor_id,
                      actor_type=actor_type, workspace_id=workspace_id, company_id=company_id, details=details)
    await entry.save()
    return entry


def new_entry(
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
    """:func:`record` without its INSERT: the caller writes the entry in the same transaction,
    with the change's other rows (core.rows.write_rows)."""
    entry = _entry(action=action, object_type=object_type, object_id=object_id, actor_id=actor_id,
                   actor_type=actor_type, workspace_id=workspace_id, company_id=company_id, details=details)
    _nudge_chainer(workspace_id)
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
        _nudge_chainer(workspace_id)


def _nudge_chainer(workspace_id: uuid.UUID | None) -> None:
    """Chain the workspace's entries soon after this unit of work commits (they are final then),
    together with the other commits of the next :data:`~domain.audit_chain.CHAIN_DELAY_MS`."""
    if workspace_id is not None:
        nudge_after_commit(CHAIN, str(workspace_id), delay_ms=CHAIN_DELAY_MS)


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EntryFilter:
    """What GET /api/v1/audit/entries narrows to; every field is optional."""

    action: str | None = None
    actor_id: uuid.UUID | None = None
    object_type: str | None = None
    object_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None


@dataclass(frozen=True)
class EntryPage:
    """One page of chained entries, oldest first, and where the chain stands."""

    links: list[tuple[AuditChainLink, AuditEntry]]
    next_cursor: int | None
    head: AuditHead | None
    #: Entries of the workspace written but not chained yet (not final, or the chainer is behind).
    pending: int


async def list_entries(*, principal: Principal | None, workspace_id: uuid.UUID, filters: EntryFilter,
                       cursor: int = 0, limit: int = 100) -> EntryPage:
    """The workspace's chained entries after ``cursor`` (a ``seq``) that match ``filters``."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_AUDIT_LOG)
    query = AuditChainLink.filter(workspace_id=workspace_id, seq__gt=cursor)
    if filters.action is not None:
        query = query.filter(entry__action=filters.action)
    if filters.actor_id is not None:
        query = query.filter(entry__actor_id=filters.actor_id)
    if filters.object_type is not None:
        query = query.filter(entry__object_type=filters.object_type)
    if filters.object_id is not None:
        query = query.filter(entry__object_id=filters.object_id)
    if filters.since is not None:
        query = query.filter(entry__created_at__gte=filters.since)
    if filters.until is not None:
        query = query.filter(entry__created_at__lt=filters.until)
    links = await query.order_by("seq").limit(limit + 1).prefetch_related("entry")
    more = len(links) > limit
    links = links[:limit]
    head = await latest_head(workspace_id=workspace_id)
    pending = await AuditEntry.filter(workspace_id=workspace_id,
                                      position__gt=head.position if head is not None else -(2**63)).count()
    return EntryPage(links=[(link, link.entry) for link in links],
                     next_cursor=links[-1].seq if more and links else None, head=head, pending=pending)


async def signed_head(*, principal: Principal | None, workspace_id: uuid.UUID) -> tuple[AuditHead | None, int]:
    """The workspace's latest signed head and how many entries wait to be chained."""
    if principal is not None:
        principal.require(workspace_id, Permission.VIEW_AUDIT_LOG)
    head = await latest_head(workspace_id=workspace_id)
    pending = await AuditEntry.filter(workspace_id=workspace_id,
                                      position__gt=head.position if head is not None else -(2**63)).count()
    return head, pending
