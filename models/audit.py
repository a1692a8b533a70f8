"""The append-only audit log and the hash chain that makes it verifiable (docs/audit.md).

- :class:`AuditEntry` (``audit_log``): one audited change, written in the transaction of the
  change. A database trigger refuses UPDATE and DELETE; another one stamps ``position`` on
  insert, the entry's place in commit order (core/commit_order.py): writers never choose it and
  never wait for one another.
- :class:`AuditChainLink` (``audit_chain``): an entry's place in its workspace's hash chain:
  ``seq`` (1, 2, ... with no gap), the previous link's hash and its own. Written once by the
  chainer (domain/audit_chain.py) after the entry is final; a trigger refuses UPDATE and DELETE
  here too. The chain lives beside the log rather than in it so that ``audit_log`` stays
  strictly append-only: no statement can ever change an entry, not even to fill a column once.
- :class:`AuditHead`: the chain's latest hash, signed with the service's audit key; one row per
  chaining run that extended the chain (insert-only as well).
- :class:`AuditSigningKey`: the Ed25519 keys that sign heads; the private part sealed at rest
  with ``CUSTODY_SECRET_KEY``. A key after the first is endorsed by the key before it.
"""

from __future__ import annotations

import uuid

from tortoise import fields
from tortoise.models import Model

from core import clock


class AuditEntry(Model):
    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    workspace_id = fields.UUIDField(null=True, db_index=True)
    company_id = fields.UUIDField(null=True)
    #: Who did it: a user id, or null for the system (actors, scheduler).
    actor_id = fields.UUIDField(null=True)
    actor_type = fields.CharField(max_length=20)
    action = fields.CharField(max_length=64)
    object_type = fields.CharField(max_length=40)
    object_id = fields.CharField(max_length=64, null=True)
    details = fields.JSONField(default=dict)
    request_id = fields.CharField(max_length=64, null=True)
    created_at = fields.DatetimeField(default=clock.now)
    #: The commit-order position ``xid << 16 | ordinal``, stamped by the trigger
    #: ``audit_log_position`` on insert whatever the writer sent (core/commit_order.py).
    position = fields.BigIntField(null=True)

    class Meta:
        table = "audit_log"
        unique_together = (("workspace_id", "position"),)


class AuditChainLink(Model):
    """An entry's place in its workspace's chain: ``hash = SHA-256(previous_hash || canonical(entry))``."""

    entry = fields.OneToOneField("models.AuditEntry", related_name=False, on_delete=fields.RESTRICT,
                                 primary_key=True)
    entry_id: uuid.UUID
    workspace_id = fields.UUIDField()
    #: 1 for the workspace's first chained entry, then one more each, with no gap.
    seq = fields.BigIntField()
    #: The entry's position, copied: the chain is in position order.
    position = fields.BigIntField()
    #: Hex SHA-256; 64 zeros before the first entry.
    previous_hash = fields.CharField(max_length=64)
    hash = fields.CharField(max_length=64)
    chained_at = fields.DatetimeField(default=clock.now)

    class Meta:
        table = "audit_chain"
        unique_together = (("workspace_id", "seq"),)


class AuditHead(Model):
    """The latest link of a workspace's chain, as the service signed it."""

    id = fields.UUIDField(primary_key=True, default=uuid.uuid4)
    workspace_id = fields.UUIDField()
    seq = fields.BigIntField()
    hash = fields.CharField(max_length=64)
    #: The position of the entry at ``seq``: every entry below it is chained.
    position = fields.BigIntField()
    key_id = fields.CharField(max_length=32)
    signed_at = fields.DatetimeField()
    #: Base64 Ed25519 signature of ``domain.audit_chain.head_message(...)``.
    signature = fields.CharField(max_length=88)

    class Meta:
        table = "audit_heads"
        unique_together = (("workspace_id", "seq", "key_id"),)


class AuditSigningKey(Model):
    """An Ed25519 key that signs chain heads (``key_id``: the first 16 bytes of SHA-256 of the
    public key, hex)."""

    key_id = fields.CharField(max_length=32, primary_key=True)
    #: Base64 of the 32-byte public key.
    public_key = fields.CharField(max_length=44)
    #: The 32-byte seed, sealed with CUSTODY_SECRET_KEY (core/sealing.py).
    sealed_private_key = fields.BinaryField()
    created_at = fields.DatetimeField(default=clock.now)
    #: When a newer key took over (null for the key in use).
    retired_at = fields.DatetimeField(null=True)
    #: The key before this one, and its base64 signature of ``domain.audit_chain.endorsement_message``.
    previous_key_id = fields.CharField(max_length=32, null=True)
    endorsement = fields.CharField(max_length=88, null=True)

    class Meta:
        table = "audit_signing_keys"
