"""The audit log as an integrator reads and verifies it (GET /api/v1/audit/...; docs/audit.md)."""

from __future__ import annotations

import uuid
from datetime import datetime, timezone
from typing import Annotated, Any

from pydantic import AfterValidator, AwareDatetime, Field

from api.schemas.common import QueryParams, Resource, text
from core.clock import rfc3339
from domain import audit_chain
from domain.audit import EntryFilter, EntryPage
from models.audit import AuditChainLink, AuditEntry, AuditHead, AuditSigningKey

_HASH = Field(pattern=r"^[0-9a-f]{64}$", description="Hex SHA-256.")


def _in_utc(value: datetime) -> datetime:
    """The moment in UTC; one that UTC cannot hold (year 1 at +23:59) is refused, not a 500."""
    try:
        return value.astimezone(timezone.utc)
    except OverflowError:
        raise ValueError("is outside the range of timestamps") from None


Moment = Annotated[AwareDatetime, AfterValidator(_in_utc)]


class AuditEntryQuery(QueryParams):
    action: text(max_length=64) | None = Field(None, description="Only this action (e.g. tag.created).")
    actor_id: uuid.UUID | None = Field(None, description="Only what this user, API user or device's user did.")
    object_type: text(max_length=40) | None = Field(None, description="Only entries about this kind of object.")
    object_id: text(max_length=64) | None = Field(None, description="Only entries about this object.")
    since: Moment | None = Field(None, description="Only entries written at or after this time (RFC 3339).")
    until: Moment | None = Field(None, description="Only entries written before this time (RFC 3339).")
    cursor: int = Field(0, ge=0, le=2**53, description="The next_cursor of the previous page (a seq); 0 or absent: "
                                                       "from the first entry.")
    limit: int = Field(100, ge=1, le=1000, description="Page size, 1 to 1000 (default 100).")

    def as_domain(self) -> EntryFilter:
        return EntryFilter(action=self.action, actor_id=self.actor_id, object_type=self.object_type,
                           object_id=self.object_id, since=self.since, until=self.until)


class AuditLogEntry(Resource):
    """One chained entry. Every field but ``previous_hash`` and ``hash`` is what ``hash`` covers:
    ``hash = SHA-256(bytes.fromhex(previous_hash) || canonical JSON of those fields)``."""

    seq: int = Field(ge=1, description="Its place in the workspace's chain: 1, 2, ... with no gap.")
    id: uuid.UUID
    position: str = Field(pattern=r"^-?[0-9]{1,20}$", description="Its commit-order position (a 64-bit integer).")
    workspace_id: uuid.UUID
    company_id: uuid.UUID | None
    actor_id: uuid.UUID | None = Field(description="Who acted; null for the service itself (a job).")
    actor_type: str = Field(description="user, api_user, device or system.")
    action: str
    object_type: str
    object_id: str | None
    details: dict[str, Any]
    request_id: str | None = Field(description="The request's X-Request-Id (for a job: its command id).")
    created_at: str = Field(description="RFC 3339, UTC, as hashed.")
    previous_hash: str = _HASH
    hash: str = _HASH

    @classmethod
    def of(cls, link: AuditChainLink, entry: AuditEntry) -> "AuditLogEntry":
        return cls(**audit_chain.entry_document(entry, link.seq), previous_hash=link.previous_hash, hash=link.hash)


class AuditSignedHead(Resource):
    """The chain's latest link, signed: ``signature`` is the base64 Ed25519 signature, by the key
    ``key_id``, of ``b"custody-audit-head:v1\\n"`` followed by the canonical JSON of the other fields."""

    workspace_id: uuid.UUID
    seq: int = Field(ge=1, description="How many entries the chain holds.")
    hash: str = _HASH
    position: str = Field(pattern=r"^-?[0-9]{1,20}$", description="The position of the entry at seq.")
    signed_at: str
    key_id: str
    signature: str

    @classmethod
    def of(cls, head: AuditHead) -> "AuditSignedHead":
        return cls(**audit_chain.head_document(head), signature=head.signature)


class AuditChainState(Resource):
    length: int = Field(ge=0, description="Entries in the chain (the head's seq; 0 before the first).")
    pending: int = Field(ge=0, description="Entries written but not chained yet: served once chained (seconds).")
    head: AuditSignedHead | None = Field(description="null until the first entry is chained.")

    @classmethod
    def of(cls, head: AuditHead | None, pending: int) -> "AuditChainState":
        return cls(length=head.seq if head else 0, pending=pending, head=AuditSignedHead.of(head) if head else None)


class AuditEntryPage(Resource):
    entries: list[AuditLogEntry] = Field(description="Chained entries in chain order (oldest first).")
    next_cursor: int | None = Field(description="Pass as ?cursor= for the next page; null on the last one (keep "
                                                "the last seq to follow the log later).")
    chain: AuditChainState

    @classmethod
    def of(cls, page: EntryPage) -> "AuditEntryPage":
        return cls(entries=[AuditLogEntry.of(link, entry) for link, entry in page.links], next_cursor=page.next_cursor,
                   chain=AuditChainState.of(page.head, page.pending))


class AuditSigningKeyResource(Resource):
    """A key that signs heads. Pin one out of band; a later key is trusted through its
    ``endorsement``: the previous key's base64 signature of ``b"custody-audit-key:v1\\n"`` followed by
    the canonical JSON of ``{key_id, public_key, previous_key_id}``."""

    key_id: str = Field(description="The first 16 bytes of SHA-256 of the public key, hex.")
    public_key: str = Field(description="Base64 of the 32-byte Ed25519 public key.")
    created_at: str
    retired_at: str | None = Field(description="When the next key took over; null for the key in use.")
    previous_key_id: str | None
    endorsement: str | None

    @classmethod
    def of(cls, key: AuditSigningKey) -> "AuditSigningKeyResource":
        return cls(key_id=key.key_id, public_key=key.public_key, created_at=rfc3339(key.created_at) or "",
                   retired_at=rfc3339(key.retired_at), previous_key_id=key.previous_key_id,
                   endorsement=key.endorsement)


class AuditSigningKeys(Resource):
    keys: list[AuditSigningKeyResource] = Field(description="Oldest first; the last one signs new heads.")
