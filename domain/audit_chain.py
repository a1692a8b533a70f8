"""The audit log's hash chain, its signed heads and the keys that sign them (docs/audit.md).

The rules, in the order the code applies them:

1. **Positions, no lock.** An entry is written in the transaction of the change it records
   (domain/audit.py); a trigger stamps its commit-order position (core/commit_order.py). No
   writer waits for another: the money path takes no lock for the audit log.
2. **Final entries only.** The chainer (:func:`chain`) reads a workspace's entries after its
   last link with a position below the horizon of that very statement: every such entry's
   transaction has ended, so no entry can later appear between two links.
3. **One chainer per workspace, in batches.** An audited commit nudges its workspace's chainer
   :data:`CHAIN_DELAY_MS` later, so that the commits meanwhile are linked in the same run. It
   takes a transaction-scoped advisory lock on the workspace's chain: chainers of one workspace run one after the other, writers never take it. The unique
   ``(workspace_id, seq)`` of ``audit_chain`` would refuse a fork anyway.
4. **The last link is checked first.** The chain's last link must be what the last signed head
   says; otherwise the chain was changed behind the service's back and the chainer stops
   (:class:`ChainBroken`) rather than sign over it.
5. **Links.** In position order, entry ``seq`` gets ``hash = SHA-256(previous_hash ||
   canonical(document))``: ``previous_hash`` the 32 bytes of the link before (zeros for the
   first), ``document`` the entry as the API serves it (:func:`entry_document`), ``canonical``
   its JSON with sorted keys, no whitespace, UTF-8 (:func:`canonical`).
6. **The head.** Each run that linked something signs the new head (workspace, seq, hash,
   position, signed_at, key_id) with the current audit key (Ed25519): :func:`head_message`.
7. **Keys.** The first key is made on first use; :func:`rotate_signing_key` makes the next one,
   endorsed by the one before (:func:`endorsement_message`), and retires the old one. Private
   parts are sealed with ``CUSTODY_SECRET_KEY``; public parts are published
   (GET /api/v1/audit/keys) for integrators to pin.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import logging
import uuid
from dataclasses import dataclass
from typing import Any

from nacl.signing import SigningKey
from tortoise import connections

from core import clock, sealing
from core.clock import rfc3339
from core.commit_order import HORIZON_SQL
from domain.errors import DomainError
from models.audit import AuditEntry, AuditHead, AuditSigningKey

logger = logging.getLogger(__name__)

#: The actor that chains one workspace (nudged after each audited commit), and the scheduler's sweep.
CHAIN = "audit.chain"
SWEEP = "audit.sweep"
SWEEP_INTERVAL_SECONDS = 10
#: Entries linked per chainer transaction (a longer backlog takes several).
CHAIN_BATCH = 1000
#: How much later than an audited commit its chainer runs (domain.audit nudges it): every commit of
#: the workspace meanwhile joins that run. A run costs about eight statements whatever it links,
#: so chaining each commit on its own cost more than the withdrawal pipeline's own writes
#: (bench/withdrawals.py: 13 statements per withdrawal, 1.7 runs); delayed, a workspace's chainer
#: runs at most about twice a second under any load, and an entry is chained within about a
#: second of its commit (the sweep, every SWEEP_INTERVAL_SECONDS, still covers a lost nudge).
CHAIN_DELAY_MS = 500
#: ``previous_hash`` of a workspace's first link.
GENESIS = "0" * 64
_HEAD_CONTEXT = b"custody-audit-head:v1\n"
_KEY_CONTEXT = b"custody-audit-key:v1\n"
_MIN_POSITION = -(2**63)


class ChainBroken(DomainError):
    """The stored chain no longer ends where its last signed head says."""

    status = 500
    code = "AUDIT_CHAIN_BROKEN"


# --- what is hashed and signed ------------------------------------------------------------------------


def entry_document(entry: AuditEntry, seq: int) -> dict[str, Any]:
    """The entry as the API serves it, without its link: exactly what its hash covers."""
    return {
        "seq": seq,
        "id": str(entry.id),
        "position": str(entry.position),
        "workspace_id": str(entry.workspace_id),
        "company_id": str(entry.company_id) if entry.company_id else None,
        "actor_id": str(entry.actor_id) if entry.actor_id else None,
        "actor_type": entry.actor_type,
        "action": entry.action,
        "object_type": entry.object_type,
        "object_id": entry.object_id,
        "details": entry.details,
        "request_id": entry.request_id,
        "created_at": rfc3339(entry.created_at),
    }


def canonical(document: dict[str, Any]) -> bytes:
    """JSON with keys sorted, no whitespace, non-ASCII as is, UTF-8 (the SDK does the same)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode()


def link_hash(previous_hash: str, document: dict[str, Any]) -> str:
    """``SHA-256(previous_hash || canonical(document))``, hex."""
    return hashlib.sha256(bytes.fromhex(previous_hash) + canonical(document)).hexdigest()


def head_document(head: AuditHead) -> dict[str, Any]:
    return {"workspace_id": str(head.workspace_id), "seq": head.seq, "hash": head.hash,
            "position": str(head.position), "signed_at": rfc3339(head.signed_at), "key_id": head.key_id}


def head_message(document: dict[str, Any]) -> bytes:
    """What a head's signature covers: a context line, then the head's canonical JSON."""
    return _HEAD_CONTEXT + canonical(document)


def endorsement_message(*, key_id: str, public_key: str, previous_key_id: str) -> bytes:
    """What the previous key signs when a key is rotated in."""
    return _KEY_CONTEXT + canonical({"key_id": key_id, "public_key": public_key,
                                     "previous_key_id": previous_key_id})


def key_id_of(public_key: bytes) -> str:
    """The first 16 bytes of SHA-256 of the public key, hex: a key names itself."""
    return hashlib.sha256(public_key).hexdigest()[:32]


# --- keys --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActiveKey:
    row: AuditSigningKey
    signer: SigningKey


async def _lock(name: str) -> None:
    await connections.get("default").execute_query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [name])


def _new_key(*, previous: ActiveKey | None) -> tuple[AuditSigningKey, SigningKey]:
    signer = SigningKey.generate()
    public = bytes(signer.verify_key)
    row = AuditSigningKey(key_id=key_id_of(public), public_key=base64.b64encode(public).decode(),
                          sealed_private_key=sealing.seal(bytes(signer)), created_at=clock.now())
    if previous is not None:
        row.previous_key_id = previous.row.key_id
        message = endorsement_message(key_id=row.key_id, public_key=row.public_key,
                                      previous_key_id=previous.row.key_id)
        row.endorsement = base64.b64encode(previous.signer.sign(message).signature).decode()
    return row, signer


async def active_key() -> ActiveKey:
    """The key that signs heads now; the first one is made on first use."""
    row = await AuditSigningKey.filter(retired_at__isnull=True).order_by("-created_at").first()
    if row is None:
        await _lock("audit-signing-key")
        row = await AuditSigningKey.filter(retired_at__isnull=True).order_by("-created_at").first()
        if row is None:
            row, signer = _new_key(previous=None)
            await row.save(force_create=True)
            logger.info("audit: made the first signing key %s", row.key_id)
            return ActiveKey(row, signer)
    return ActiveKey(row, _signer(row.sealed_private_key))


def _signer(sealed_private_key: bytes) -> SigningKey:
    """A signing key's private part, unsealed (core.sealing)."""
    return SigningKey(sealing.unseal(bytes(sealed_private_key)))


async def rotate_signing_key() -> AuditSigningKey:
    """Make a new signing key, endorsed by the current one, which is retired. Heads signed from
    now on name the new key; earlier heads stay verifiable with the retired key's public part."""
    await _lock("audit-signing-key")
    current = await active_key()
    row, _ = _new_key(previous=current)
    current.row.retired_at = clock.now()
    await current.row.save(update_fields=["retired_at"])
    await row.save(force_create=True)
    logger.info("audit: rotated the signing key %s -> %s", current.row.key_id, row.key_id)
    return row


async def published_keys() -> list[AuditSigningKey]:
    """Every signing key, oldest first, each after the key that endorsed it (GET /api/v1/audit/keys)."""
    keys = await AuditSigningKey.all().order_by("created_at", "key_id")
    next_of = {key.previous_key_id: key for key in keys if key.previous_key_id}
    ordered = [key for key in keys if key.previous_key_id is None]
    while ordered and ordered[-1].key_id in next_of:
        ordered.append(next_of.pop(ordered[-1].key_id))
    return ordered + [key for key in keys if key not in ordered]


# --- the chainer --------------------------------------------------------------------------------------


@functools.cache
def _chain_read_sql() -> str:
    """Everything a chaining run reads, in one statement after the workspace's chain lock: the last
    link, the latest signed head, the signing key in use and (up to $3) the final entries after the
    last link, in position order (one row per entry, with every column of the entry model; one row
    of NULL entry columns when none). What ``AuditChainLink.filter(...).order_by("-seq").first()``,
    ``AuditHead.filter(...).order_by("-seq", "-signed_at").first()``, :func:`active_key`'s query
    and the entries' two reads returned, one after the other, under the same lock. (Made on first
    use, from the model's columns: an entry is hashed whole, so none may be left out.)"""
    entry_columns = ", ".join(f'e."{column}"' for column in _entry_columns())
    return f"""
SELECT last.seq AS last_seq, last.hash AS last_hash, last.position AS last_position,
       head.seq AS head_seq, head.hash AS head_hash,
       k.key_id AS key_key_id, k.sealed_private_key AS key_sealed_private_key, {entry_columns}
FROM (SELECT 1) AS one
LEFT JOIN (SELECT seq, hash, position FROM audit_chain WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1) AS last ON true
LEFT JOIN (SELECT seq, hash FROM audit_heads WHERE workspace_id = $1 ORDER BY seq DESC, signed_at DESC LIMIT 1) AS head
       ON true
LEFT JOIN (SELECT key_id, sealed_private_key FROM audit_signing_keys WHERE retired_at IS NULL
           ORDER BY created_at DESC LIMIT 1) AS k ON true
LEFT JOIN LATERAL (
    SELECT * FROM audit_log WHERE workspace_id = $1 AND position > coalesce(last.position, $2)
    AND position < {HORIZON_SQL} ORDER BY position LIMIT $3
) AS e ON true
ORDER BY e.position
"""


def _entry_columns() -> list[str]:
    return list(AuditEntry._meta.fields_db_projection.values())  # noqa: SLF001


#: The run's links and its signed head, in one statement.
_CHAIN_WRITE = """
WITH head AS (
    INSERT INTO audit_heads (id, workspace_id, seq, hash, position, key_id, signed_at, signature)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
)
INSERT INTO audit_chain (entry_id, workspace_id, seq, position, previous_hash, hash, chained_at)
SELECT u.entry_id, $2, u.seq, u.position, u.previous_hash, u.hash, $7
FROM unnest($9::uuid[], $10::bigint[], $11::bigint[], $12::text[], $13::text[])
     AS u(entry_id, seq, position, previous_hash, hash)
"""


async def chain(*, workspace_id: uuid.UUID, batch: int = CHAIN_BATCH) -> int:
    """Link the workspace's final unchained entries (at most ``batch``) and sign the new head.
    Returns how many were linked. Runs in the caller's (short) transaction: the chain's lock,
    one statement that reads (:func:`_chain_read_sql`), one that writes (:data:`_CHAIN_WRITE`)."""
    await _lock(f"audit-chain:{workspace_id}")
    client = connections.get("default")
    _, rows = await client.execute_query(_chain_read_sql(), [workspace_id, _MIN_POSITION, batch])
    first = rows[0]
    if first["last_seq"] is not None:
        if first["head_seq"] is None or (first["head_seq"], first["head_hash"]) != (first["last_seq"], first["last_hash"]):
            logger.error("audit: the chain of workspace %s does not end at its signed head", workspace_id)
            raise ChainBroken("the stored audit chain does not end where its last signed head says",
                              details={"workspace_id": str(workspace_id), "seq": first["last_seq"]})
    if first["id"] is None:
        return 0
    entries = [AuditEntry._init_from_db(**{name: row[name] for name in _entry_columns()})  # noqa: SLF001
               for row in rows]
    seq, previous = (first["last_seq"], first["last_hash"]) if first["last_seq"] is not None else (0, GENESIS)
    now = clock.now()
    ids, seqs, positions, previous_hashes, hashes = [], [], [], [], []
    for entry in entries:
        seq += 1
        digest = link_hash(previous, entry_document(entry, seq))
        ids.append(entry.id)
        seqs.append(seq)
        positions.append(entry.position)
        previous_hashes.append(previous)
        hashes.append(digest)
        previous = digest
    if first["key_key_id"] is not None:
        key_id = first["key_key_id"]
        signer = _signer(first["key_sealed_private_key"])
    else:  # the first key, made on first use
        key = await active_key()
        key_id, signer = key.row.key_id, key.signer
    head = AuditHead(workspace_id=workspace_id, seq=seq, hash=previous, position=entries[-1].position,
                     key_id=key_id, signed_at=now, signature="")
    head.signature = base64.b64encode(signer.sign(head_message(head_document(head))).signature).decode()
    await client.execute_query(_CHAIN_WRITE, [head.id, workspace_id, seq, previous, head.position, key_id, now,
                                              head.signature, ids, seqs, positions, previous_hashes, hashes])
    return len(entries)


async def workspaces_behind() -> list[uuid.UUID]:
    """Workspaces with final entries their chain does not hold yet (what the sweep chains)."""
    rows = await connections.get("default").execute_query_dict(
        "SELECT w.id FROM workspaces w WHERE EXISTS ("
        " SELECT 1 FROM audit_log a WHERE a.workspace_id = w.id"
        f" AND a.position < {HORIZON_SQL}"
        " AND a.position > COALESCE((SELECT c.position FROM audit_chain c WHERE c.workspace_id = w.id"
        "                            ORDER BY c.seq DESC LIMIT 1), $1))",
        [_MIN_POSITION])
    return [row["id"] for row in rows]


async def latest_head(*, workspace_id: uuid.UUID) -> AuditHead | None:
    return await AuditHead.filter(workspace_id=workspace_id).order_by("-seq", "-signed_at").first()
