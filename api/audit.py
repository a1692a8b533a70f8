"""The audit log: /api/v1/audit/entries, /api/v1/audit/head and /api/v1/audit/keys (docs/audit.md).

Entries and the head are per workspace (X-Workspace-Id) and need VIEW_AUDIT_LOG (the owner and
the administrators). The signing keys are public: any authenticated caller reads them, to pin
one and to follow its rotations.
"""

from __future__ import annotations

from sanic import Blueprint, Request

from api.context import principal, workspace
from api.contract import endpoint
from api.schemas.audit import (
    AuditChainState,
    AuditEntryPage,
    AuditEntryQuery,
    AuditSigningKeyResource,
    AuditSigningKeys,
)
from domain import audit, audit_chain

bp = Blueprint("audit", url_prefix="/api/v1/audit")

_TAG = "audit"


@bp.get("/entries")
@endpoint(summary="The workspace's chained audit entries with their hashes, filtered and paged (VIEW_AUDIT_LOG)",
          description="Oldest first. Each entry carries the hash of the one before; the signed head (chain.head) "
                      "proves, against a pinned key, that nothing before it was removed or rewritten. Entries "
                      "are served once chained (chain.pending says how many wait, usually seconds).",
          tag=_TAG, query=AuditEntryQuery, responses={200: AuditEntryPage}, workspace=True)
async def list_audit_entries(request: Request, query: AuditEntryQuery) -> AuditEntryPage:
    caller, ws = await workspace(request)
    page = await audit.list_entries(principal=caller, workspace_id=ws.id, filters=query.as_domain(),
                                    cursor=query.cursor, limit=query.limit)
    return AuditEntryPage.of(page)


@bp.get("/head")
@endpoint(summary="The workspace's latest signed chain head, and how many entries wait to be chained "
                  "(VIEW_AUDIT_LOG)", tag=_TAG, responses={200: AuditChainState}, workspace=True)
async def audit_head(request: Request) -> AuditChainState:
    caller, ws = await workspace(request)
    head, pending = await audit.signed_head(principal=caller, workspace_id=ws.id)
    return AuditChainState.of(head, pending)


@bp.get("/keys")
@endpoint(summary="The keys that sign audit chain heads: pin one, follow its rotations by their endorsements",
          tag=_TAG, responses={200: AuditSigningKeys})
async def audit_signing_keys(request: Request) -> AuditSigningKeys:
    await principal(request)
    return AuditSigningKeys(keys=[AuditSigningKeyResource.of(key) for key in await audit_chain.published_keys()])
